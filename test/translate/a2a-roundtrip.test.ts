// A translation is proven by the diff: every witness message `agentproto diff a2a@0.3 a2a@1.0` builds (a message one
// side accepts and the other rejects), and every example, translated to the other version and back, comes back as it
// was. What a rule drops on purpose is listed below with the rule that drops it; anything else that does not come back
// is a defect in the translation.
import path from 'node:path';
import { diffSides, loadProtocols, sideFromVersion } from '@agentproto/codegen';
import { compileTranslation, type TranslationTable, type Translator } from '@agentproto/runtime/translate';
import { describe, expect, it } from 'vitest';
import { TRANSLATOR } from '../../packages/a2a/src/generated/translate-0.3-1.0.js';
import { isRecord } from '../support/typed.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const versions = await loadProtocols(ROOT, ['a2a']);
const side = (v: string) => {
  const found = versions.find((x) => x.version === v);
  if (!found) throw new Error(`no a2a@${v}`);
  return found;
};
const from = side('0.3');
const to = side('1.0');
const types = TRANSLATOR.table.types;
const targets = new Map<string, string[]>();
for (const [name, rule] of Object.entries(types))
  targets.set(rule.to ?? name, [...(targets.get(rule.to ?? name) ?? []), name]);

/**
 * A value as a comparable string: keys sorted (order is not meaning), and what the rules drop on purpose taken out,
 * so the comparison is of what must survive.
 */
function canonical(value: unknown, side: 'from' | 'to' = 'from'): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isRecord(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      // `final` is derived from the state going down (DECISIONS: the translation), so an inconsistent one is rebuilt.
      if (k === 'final') continue;
      // A 1.0 value may carry 0.3's `kind` tag as an unknown field (1.0 keeps objects open); 1.0 has no such field,
      // so its rules write and drop it as the tag of the 0.3 side.
      if (k === 'kind' && side === 'to') continue;
      // 0.3's ProtoJSON `authentication: {}` (an AuthenticationInfo holding nothing) means none: its rule leaves it
      // out going up (`emptyIsAbsent`), so it does not come back.
      const value = v[k];
      if (k === 'authentication' && side === 'from' && isRecord(value) && Object.keys(value).length === 0)
        continue;
      out[k] = walk(v[k]);
    }
    return out;
  };
  return JSON.stringify(walk(value));
}

/**
 * 0.3 types a rule writes down in another form of the same meaning: they come back as the same 1.0 value, not as the
 * same 0.3 text. By type, with the reason.
 */
const ONE_WAY: Readonly<Record<string, string>> = {
  // DECISIONS 119: a2a-python's whole create request is read; the bare config is what goes down.
  ProtoCreateTaskPushNotificationConfigRequest: 'written down as the bare config',
  ProtoCreateTaskPushNotificationConfigBody: 'either form read, the bare config written down',
  // DECISIONS 122: a get that leaves the config id out reads the task's default config, named outright going down.
  GetTaskPushNotificationConfigParams: 'a left-out config id read as the task id, written down',
};

/**
 * One message's round trip. A 0.3 message (`from`) goes up by its own type's rule and down again; a 1.0 message goes
 * down and up by the rule of the same name (Part, Message…), or, when there is none, by every rule that makes its type
 * and must come back through at least one (the server picks the rule by the method it serves).
 */
function roundTrip(
  side: 'from' | 'to',
  subject: string,
  message: unknown,
  translator: Translator = TRANSLATOR,
): { how: string; back: unknown; want?: unknown } | undefined {
  if (side === 'from') {
    if (!types[subject]) return undefined;
    const c = translator.codec(subject);
    if (ONE_WAY[subject]) {
      // Compared as 1.0 values (`to`): the meaning is what must come back.
      const up = c.up(message);
      return { how: `${subject} up, down, up (${ONE_WAY[subject]})`, back: c.up(c.down(up)), want: up };
    }
    return { how: `${subject} up, down`, back: c.down(c.up(message)) };
  }
  const names = targets.get(subject) ?? [];
  const candidates = names.includes(subject) ? [subject] : names;
  let last: { how: string; back: unknown } | undefined;
  for (const name of candidates) {
    const c = translator.codec(name);
    last = { how: `${name} down, up`, back: c.up(c.down(message)) };
    if (canonical(last.back, 'to') === canonical(message, 'to')) return last;
  }
  return last;
}

describe('translation a2a@0.3 → 1.0 > round trips', () => {
  const report = diffSides(sideFromVersion(from), sideFromVersion(to));
  const witnesses = report.changes.flatMap((c) => c.witnesses.map((w) => ({ change: c.rule, ...w })));
  // The 1.0 side's witnesses only round-trip through a rule whose `to` is their type; a 0.3-only type has none.
  const sideOf = (w: { breaks: string }): 'from' | 'to' => (w.breaks === 'senders' ? 'from' : 'to');
  const covered = witnesses.filter((w) => (sideOf(w) === 'from' ? types[w.subject] : targets.has(w.subject)));

  it('witnesses > the diff builds witnesses the translation covers', () => {
    expect(covered.length).toBeGreaterThan(20);
  });

  it('witnesses > every witness comes back as it was', () => {
    const failures: string[] = [];
    for (const w of covered) {
      const trip = roundTrip(sideOf(w), w.subject, w.message);
      const side = trip?.want === undefined ? sideOf(w) : 'to';
      if (trip && canonical(trip.back, side) !== canonical(trip.want ?? w.message, side))
        failures.push(`${w.change} ${trip.how}: ${JSON.stringify(w.message)} → ${JSON.stringify(trip.back)}`);
    }
    expect(failures).toEqual([]);
  });

  /** The examples that do not come back through `translator`, and how many were tried. */
  const exampleFailures = (translator: Translator) => {
    const failures: string[] = [];
    let tried = 0;
    for (const version of [from, to])
      for (const f of version.fixtures) {
        if (f.kind !== 'examples') continue;
        const subject = f.path.split('/')[0] ?? '';
        if (version === from ? !types[subject] : !targets.has(subject)) continue;
        const message: unknown = JSON.parse(f.text);
        const trip = roundTrip(version === from ? 'from' : 'to', subject, message, translator);
        if (!trip) continue;
        tried++;
        const side = version === from && trip.want === undefined ? 'from' : 'to';
        if (canonical(trip.back, side) !== canonical(trip.want ?? message, side))
          failures.push(`${version.version} ${f.path} ${trip.how}: → ${JSON.stringify(trip.back)}`);
      }
    return { failures, tried };
  };

  it('examples > every example of a translated type comes back as it was', () => {
    const { failures, tried } = exampleFailures(TRANSLATOR);
    expect(tried).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  });

  it('check > a rule that loses a field is caught (a file name moved onto the media type)', () => {
    const file = TRANSLATOR.table.types.FilePart;
    if (!file) throw new Error('the translation has no FilePart rule');
    const table: TranslationTable = {
      ...TRANSLATOR.table,
      types: {
        ...TRANSLATOR.table.types,
        FilePart: { ...file, fields: { ...file.fields, 'file/name': { move: 'mediaType' } } },
      },
    };
    expect(exampleFailures(compileTranslation(table)).failures.length).toBeGreaterThan(0);
  });
});
