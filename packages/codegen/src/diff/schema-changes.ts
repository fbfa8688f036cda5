// Walks two versions of one schema side by side and records every difference as a change: the rule that found it,
// its pointer on both sides, whom the rule says it breaks, and how to build the messages that prove it. This file is
// the walk itself; each group of JSON Schema 2020-12 keywords has its handler under schema/.
import { isRecord } from '../util/json.js';
import type { Breaks, Change } from './diff-types.js';
import { acceptsEverything } from './schema/accepts-everything.js';
import { arrays } from './schema/arrays.js';
import { bounds } from './schema/bounds.js';
import { allOf, branches } from './schema/composition.js';
import { expandPair, type TypeLookup } from './schema/expand.js';
import { type FoundChange, type Location, type Mutation, WITNESS_KEY } from './schema/found-change.js';
import type { Here, KeywordHandler } from './schema/handler.js';
import { equal, short } from './schema/json-values.js';
import { probe, setFrom } from './schema/mutations.js';
import { closure, properties, required } from './schema/objects.js';
import { annotations, otherKeywords } from './schema/other-keywords.js';
import { refs } from './schema/refs.js';
import { strings } from './schema/strings.js';
import { consts, enums, types } from './schema/type-enum-const.js';

export { type TypeLookup, typeLookup } from './schema/expand.js';
export {
  type FoundChange,
  type Location,
  type Mutation,
  type MutationTools,
  REMOVE,
  type Step,
  WITNESS_KEY,
} from './schema/found-change.js';
export { equal } from './schema/json-values.js';
export { refTypeName } from './schema/ref-name.js';

/**
 * Compares two schemas of one subject and returns every change, pointers relative to each schema's place. With the
 * sides' types, references are followed where a written-out schema meets a named type (see schema/expand.ts), and a
 * change found inside a type names that type's file.
 */
export function schemaChanges(
  subject: string,
  area: Change['area'],
  oldSchema: unknown,
  newSchema: unknown,
  oldPointer: string,
  newPointer: string,
  types?: Record<'old' | 'new', TypeLookup>,
): FoundChange[] {
  const found: FoundChange[] = [];
  walk(
    { subject, area, found, ...(types ? { types } : {}) },
    oldSchema,
    newSchema,
    oldPointer,
    newPointer,
    { steps: [], old: oldSchema, new: newSchema },
    { seen: new Set() },
  );
  return found;
}

interface Walk {
  subject: string;
  area: Change['area'];
  found: FoundChange[];
  types?: Record<'old' | 'new', TypeLookup>;
}

/** What the walk carries beside the place: the type files the pointers are in, and the references followed here. */
interface Frame {
  inOld?: string;
  inNew?: string;
  /** The types followed to get here, for the messages. */
  note?: string;
  /** The references followed at this place of the message (cleared one step deeper). */
  seen: ReadonlySet<string>;
  /** A reference read as a union of one branch: pointers under `under` on that side are the reference's, `at`. */
  wrapped?: { side: 'old' | 'new'; under: string; at: string };
}

// The handlers, in the order their changes are reported; the catch-all for every other keyword goes last.
const HANDLERS: KeywordHandler[] = [
  refs,
  types,
  enums,
  consts,
  required,
  properties,
  closure,
  arrays,
  allOf,
  bounds,
  strings,
  (here) => branches(here, 'anyOf'),
  (here) => branches(here, 'oneOf'),
  otherKeywords,
];

function walk(w: Walk, o: unknown, n: unknown, po: string, pn: string, at: Location, frame: Frame): void {
  if (equal(o, n)) return;
  const add = (
    rule: string,
    message: string,
    expect: Breaks,
    mutations: Mutation[],
    pointers: { o?: string; n?: string } = { o: po, n: pn },
    keywords: string[] | undefined = RULE_KEYWORDS[rule],
  ) => {
    const { wrapped } = frame;
    const real = (side: 'old' | 'new', p: string | undefined) =>
      p !== undefined && wrapped?.side === side && (p === wrapped.under || p.startsWith(`${wrapped.under}/`))
        ? wrapped.at
        : p;
    const ro = real('old', pointers.o);
    const rn = real('new', pointers.n);
    pointers = { ...(ro === undefined ? {} : { o: ro }), ...(rn === undefined ? {} : { n: rn }) };
    w.found.push({
      rule,
      area: w.area,
      subject: w.subject,
      message: `${where(at)}${message}${frame.note ? ` (${frame.note})` : ''}`,
      ...(pointers.o === undefined ? {} : { oldPointer: pointers.o }),
      ...(pointers.n === undefined ? {} : { newPointer: pointers.n }),
      ...(pointers.o !== undefined && frame.inOld ? { oldIn: frame.inOld } : {}),
      ...(pointers.n !== undefined && frame.inNew ? { newIn: frame.inNew } : {}),
      expect,
      location: at,
      ...(keywords ? { keywords } : {}),
      // Plain values of every type go last, for the directions the rule claims.
      mutations: [
        ...mutations,
        ...(expect === 'both' || expect === 'receivers' ? [probe('new')] : []),
        ...(expect === 'both' || expect === 'senders' ? [probe('old')] : []),
      ],
    });
  };
  const here = (o: Record<string, unknown>, n: Record<string, unknown>): Here => ({
    o,
    n,
    po,
    pn,
    at,
    add,
    deeper: (x, y, xo, yn, token, place = { old: x, new: y }) =>
      walk(
        w,
        x,
        y,
        xo,
        yn,
        token === undefined
          ? { steps: at.steps, ...place }
          : { steps: [...at.steps, { token, old: x, new: y }], old: x, new: y },
        // One step into the message: the references followed at the place before say nothing of this one.
        token === undefined ? frame : { ...frame, seen: new Set() },
      ),
  });
  if (w.types) {
    const x = expandPair(o, n, w.types, frame.seen);
    if (x) {
      if (isRecord(o) && isRecord(n)) annotations(here(o, n));
      const { inOld, inNew, note, wrapped } = x;
      const base = wrapped?.side === 'old' ? po : pn;
      walk(
        w,
        x.o,
        x.n,
        x.po ?? po,
        x.pn ?? pn,
        { steps: at.steps, old: x.o, new: x.n },
        {
          seen: x.seen,
          ...(inOld ? { inOld } : frame.inOld ? { inOld: frame.inOld } : {}),
          ...(inNew ? { inNew } : frame.inNew ? { inNew: frame.inNew } : {}),
          ...(note ? { note } : frame.note ? { note: frame.note } : {}),
          ...(wrapped
            ? { wrapped: { side: wrapped.side, under: `${base}/${wrapped.keyword}`, at: base } }
            : frame.wrapped
              ? { wrapped: frame.wrapped }
              : {}),
        },
      );
      return;
    }
  }
  const types = w.types;
  if (types && acceptsEverything(o, types.old) && acceptsEverything(n, types.new)) {
    // One schema written two ways (`{}` and `JSONValue`): only what describes it may differ.
    if (isRecord(o) && isRecord(n)) annotations(here(o, n));
    return;
  }
  if (typeof o === 'boolean' || typeof n === 'boolean' || !isRecord(o) || !isRecord(n)) {
    // `{}` takes every value, as `true` does: one schema written two ways is no change.
    const accepts = (x: unknown) => x === true || (isRecord(x) && Object.keys(x).length === 0);
    if (accepts(o) && accepts(n)) return;
    const opens = o === false || n === true;
    const closes = n === false || o === true;
    add(
      'schema-replaced',
      `the schema changed from ${short(o)} to ${short(n)}`,
      opens && !closes ? 'receivers' : closes && !opens ? 'senders' : 'both',
      [setFrom('new', n), setFrom('old', o)],
    );
    return;
  }
  for (const handler of HANDLERS) handler(here(o, n));
}

const CLOSURE = ['additionalProperties', 'unevaluatedProperties'];

// The validator errors that count as a rule's rejection: a witness rejected for another reason (a type change beside
// a new bound) proves another change.
const RULE_KEYWORDS: Record<string, string[]> = {
  'enum-value-added': ['enum'],
  'enum-value-removed': ['enum'],
  'enum-added': ['enum'],
  'enum-removed': ['enum'],
  'const-changed': ['const'],
  'const-added': ['const'],
  'const-removed': ['const'],
  'type-widened': ['type'],
  'type-narrowed': ['type'],
  'required-added': ['required'],
  'required-removed': ['required'],
  'property-added': CLOSURE,
  'property-removed': CLOSURE,
  'object-opened': CLOSURE,
  'object-closed': CLOSURE,
  'format-added': ['format'],
  'format-removed': ['format'],
  'format-changed': ['format'],
  'pattern-added': ['pattern'],
  'pattern-removed': ['pattern'],
  'pattern-changed': ['pattern'],
};

function where(at: Location): string {
  return at.steps.length === 0
    ? ''
    : `${at.steps.map((s) => (s.token === WITNESS_KEY ? '*' : s.token)).join('.')}: `;
}
