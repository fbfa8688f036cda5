// Walks two versions of one schema side by side and records every difference as a change: the rule that found it,
// its pointer on both sides, whom the rule says it breaks, and how to build the messages that prove it (where in a
// message the change sits, and what to put there). One handler per group of JSON Schema 2020-12 keywords.
import { escapePointerToken } from '../diagnostics.js';
import { isRecord } from '../util/json.js';
import type { Breaks, Change } from './diff-types.js';
import { type RefResolver, sample, sampleOfType } from './sample.js';

/** One step into a message: a property name or array index, with the schema of that place on both sides. */
export interface Step {
  token: string;
  old: unknown;
  new: unknown;
}

/** Where in a message a change sits: the steps from the message's root, and the schemas of that place. */
export interface Location {
  steps: Step[];
  old: unknown;
  new: unknown;
}

/** What a witness-building mutation may use: each side's resolver (for samples) and examples (by type name). */
export interface MutationTools {
  resolve: Record<'old' | 'new', RefResolver>;
  examples: Record<'old' | 'new', (typeName: string) => unknown[]>;
}

/** Marks a value to delete. */
export const REMOVE: unique symbol = Symbol('remove');

/** How to turn a message that both sides accept into one that only `accept` does: a new value for the change's place. */
export interface Mutation {
  accept: 'old' | 'new';
  apply(node: unknown, tools: MutationTools): unknown;
  /** Other values to try at the change's place (the examples of a type a reference names). */
  alternatives?(tools: MutationTools): unknown[];
  /** The key the mutation adds or removes in the object at the change's place: the rejection must name it. */
  key?: string;
}

/** A change as the walk finds it, before witnesses are searched for. */
export interface FoundChange {
  rule: string;
  area: Change['area'];
  subject: string;
  message: string;
  oldPointer?: string;
  newPointer?: string;
  expect: Breaks;
  location?: Location;
  mutations: Mutation[];
  /** The validator error keywords that count as this change's rejection (any, when absent). */
  keywords?: string[];
}

/** A key no schema names: where a witness puts a value to test `additionalProperties`. */
export const WITNESS_KEY = 'agentprotoWitness';

// Keywords that describe and never constrain: a change to them breaks no one.
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

// Keywords this walk reads itself; any other constraint that differs is reported as `keyword-changed`.
const HANDLED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  'pattern',
  'format',
]);

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

const SCHEMA_FILE = '.schema.json';

/** The type name a reference names (`Message.schema.json`, `#/components/schemas/Message`, an `$id`), if any. */
export function refTypeName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  // By hand rather than by one regex: a search for `.schema.json` anywhere in a string backtracks on long inputs.
  const hash = ref.indexOf('#');
  const base = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? '' : ref.slice(hash);
  if (base.endsWith(SCHEMA_FILE)) {
    const name = base.slice(base.lastIndexOf('/') + 1, -SCHEMA_FILE.length);
    if (name === '') return undefined;
    return fragment.length > 1 ? `${name}${fragment}` : name;
  }
  return /^#\/(?:\$defs|definitions|components\/schemas)\/([^/]+)$/.exec(ref)?.[1];
}

/** Compares two schemas of one subject and returns every change, pointers relative to each schema's place. */
export function schemaChanges(
  subject: string,
  area: Change['area'],
  oldSchema: unknown,
  newSchema: unknown,
  oldPointer: string,
  newPointer: string,
): FoundChange[] {
  const found: FoundChange[] = [];
  walk({ subject, area, found }, oldSchema, newSchema, oldPointer, newPointer, {
    steps: [],
    old: oldSchema,
    new: newSchema,
  });
  return found;
}

interface Walk {
  subject: string;
  area: Change['area'];
  found: FoundChange[];
}

function walk(w: Walk, o: unknown, n: unknown, po: string, pn: string, at: Location): void {
  if (equal(o, n)) return;
  const add = (
    rule: string,
    message: string,
    expect: Breaks,
    mutations: Mutation[],
    pointers: { o?: string; n?: string } = { o: po, n: pn },
    keywords: string[] | undefined = RULE_KEYWORDS[rule],
  ) =>
    w.found.push({
      rule,
      area: w.area,
      subject: w.subject,
      message: `${where(at)}${message}`,
      ...(pointers.o === undefined ? {} : { oldPointer: pointers.o }),
      ...(pointers.n === undefined ? {} : { newPointer: pointers.n }),
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
  const here: Here = { w, o, n, po, pn, at, add };
  for (const handler of [
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
  ])
    handler(here);
  for (const keyword of ['anyOf', 'oneOf'] as const) branches(here, keyword);
  for (const key of new Set([...Object.keys(o), ...Object.keys(n)])) {
    if (HANDLED.has(key) || LOWER_BOUNDS.includes(key) || UPPER_BOUNDS.includes(key)) continue;
    // Each version names its files by its own `$id`: a different one is where the type lives, not a change.
    if (key === '$id' || key === '$schema') continue;
    if (equal(o[key], n[key])) continue;
    const pair = {
      ...(key in o ? { o: `${po}/${escapePointerToken(key)}` } : {}),
      ...(key in n ? { n: `${pn}/${escapePointerToken(key)}` } : {}),
    };
    const verb = !(key in o) ? 'added' : !(key in n) ? 'removed' : 'changed';
    if (ANNOTATIONS.has(key) || key.startsWith('x-'))
      add('annotation-changed', `\`${key}\` ${verb}`, 'none', [], pair);
    else
      add(
        'keyword-changed',
        `\`${key}\` ${verb}`,
        verb === 'added' ? 'senders' : verb === 'removed' ? 'receivers' : 'both',
        [],
        pair,
        [key],
      );
  }
}

/** One pair of schema nodes under comparison: where they are, and how a change is recorded. */
interface Here {
  w: Walk;
  o: Record<string, unknown>;
  n: Record<string, unknown>;
  po: string;
  pn: string;
  at: Location;
  add: Add;
}

/**
 * Walks a pair of subschemas: one step into the message (a property, an item) when `token` is given, else the same
 * place (a union's branch, an `allOf` member), whose schemas are `place` (the branches themselves, by default).
 */
function deeper(
  here: Here,
  x: unknown,
  y: unknown,
  po: string,
  pn: string,
  token?: string,
  place: { old: unknown; new: unknown } = { old: x, new: y },
): void {
  const at =
    token === undefined
      ? { steps: here.at.steps, ...place }
      : { steps: [...here.at.steps, { token, old: x, new: y }], old: x, new: y };
  walk(here.w, x, y, po, pn, at);
}

type Add = (
  rule: string,
  message: string,
  expect: Breaks,
  mutations: Mutation[],
  pointers?: { o?: string; n?: string },
  keywords?: string[],
) => void;

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

function refs(here: Here): void {
  const { o, n, add } = here;
  if (o.$ref === undefined && n.$ref === undefined) return;
  const from = refTypeName(o.$ref);
  const to = refTypeName(n.$ref);
  if (from === to && from !== undefined) return; // the type itself is compared on its own
  if (o.$ref !== undefined && n.$ref !== undefined)
    add('ref-changed', `is now a ${to ?? String(n.$ref)} instead of a ${from ?? String(o.$ref)}`, 'both', [
      setRef('new', n.$ref),
      setRef('old', o.$ref),
    ]);
  else if (n.$ref !== undefined)
    add('ref-added', `now must also be a ${to ?? String(n.$ref)}`, 'senders', [setFrom('old', o)]);
  else add('ref-removed', `need no longer be a ${from ?? String(o.$ref)}`, 'receivers', [setFrom('new', n)]);
}

function types(here: Here): void {
  const { o, n, at, add } = here;
  if (equal(o.type, n.type)) return;
  const of = (x: unknown) => new Set(Array.isArray(x) ? x.map(String) : x === undefined ? [] : [String(x)]);
  const before = of(o.type);
  const after = of(n.type);
  if (before.size === 0 || after.size === 0) {
    // Without `type`, a reference, a union or a value list still says what the value is.
    const constrained = (x: Record<string, unknown>) =>
      ['$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((k) => k in x);
    if (constrained(before.size === 0 ? o : n)) return;
    const narrowed = before.size === 0;
    add(
      narrowed ? 'type-narrowed' : 'type-widened',
      narrowed ? `now must be ${[...after].join(' or ')}` : `may now be any type`,
      narrowed ? 'senders' : 'receivers',
      [],
    );
    return;
  }
  const takes = (set: Set<string>, t: string) => set.has(t) || (t === 'integer' && set.has('number'));
  const gained = [...after].filter((t) => !takes(before, t) || (t === 'number' && !before.has('number')));
  const lost = [...before].filter((t) => !takes(after, t) || (t === 'number' && !after.has('number')));
  // `integer` to `number` gains the non-integers; the sample of a gained `number` must not be an integer.
  const ofType = (schema: unknown, t: string, side: 'old' | 'new'): Mutation => ({
    accept: side,
    apply: (_node, tools) => (t === 'number' ? 0.5 : sampleOfType(schema, t, tools.resolve[side])),
  });
  if (gained.length > 0)
    add(
      'type-widened',
      `now also takes ${gained.join(', ')}`,
      'receivers',
      gained.map((t) => ofType(at.new, t, 'new')),
    );
  if (lost.length > 0)
    add(
      'type-narrowed',
      `no longer takes ${lost.join(', ')}`,
      'senders',
      lost.map((t) => ofType(at.old, t, 'old')),
    );
}

function enums(here: Here): void {
  const { o, n, add } = here;
  const before = Array.isArray(o.enum) ? o.enum : undefined;
  const after = Array.isArray(n.enum) ? n.enum : undefined;
  if (equal(before, after)) return;
  if (!before || !after) {
    if (after) add('enum-added', `now must be one of ${list(after)}`, 'senders', []);
    else if (before) add('enum-removed', `need no longer be one of ${list(before)}`, 'receivers', []);
    return;
  }
  const gained = after.filter((v) => !before.some((b) => equal(b, v)));
  const lost = before.filter((v) => !after.some((a) => equal(a, v)));
  if (gained.length > 0)
    add(
      'enum-value-added',
      `takes the new value${gained.length > 1 ? 's' : ''} ${list(gained)}`,
      'receivers',
      gained.map((v) => set('new', v)),
    );
  if (lost.length > 0)
    add(
      'enum-value-removed',
      `no longer takes ${list(lost)}`,
      'senders',
      lost.map((v) => set('old', v)),
    );
}

function consts(here: Here): void {
  const { o, n, add } = here;
  if (equal(o.const, n.const) && 'const' in o === 'const' in n) return;
  if ('const' in o && 'const' in n)
    add('const-changed', `must be ${short(n.const)} instead of ${short(o.const)}`, 'both', [
      set('new', n.const),
      set('old', o.const),
    ]);
  else if ('const' in n) add('const-added', `now must be ${short(n.const)}`, 'senders', []);
  else add('const-removed', `need no longer be ${short(o.const)}`, 'receivers', [setFrom('new', n, true)]);
}

function required(here: Here): void {
  const { o, n, po, pn, add } = here;
  const of = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
  const before = of(o.required);
  const after = of(n.required);
  for (const name of after.filter((x) => !before.includes(x)))
    add('required-added', `\`${name}\` is now required`, 'senders', [drop('old', name)], {
      ...(o.required ? { o: `${po}/required` } : { o: po }),
      n: `${pn}/required/${after.indexOf(name)}`,
    });
  for (const name of before.filter((x) => !after.includes(x)))
    add('required-removed', `\`${name}\` is no longer required`, 'receivers', [drop('new', name)], {
      o: `${po}/required/${before.indexOf(name)}`,
      ...(n.required ? { n: `${pn}/required` } : { n: pn }),
    });
}

function properties(here: Here): void {
  const { o, n, po, pn, add } = here;
  const before = isRecord(o.properties) ? o.properties : {};
  const after = isRecord(n.properties) ? n.properties : {};
  const closed = (x: Record<string, unknown>) =>
    x.additionalProperties === false || x.unevaluatedProperties === false;
  const ptr = (base: string, name: string) => `${base}/properties/${escapePointerToken(name)}`;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (name in before && name in after) {
      deeper(here, before[name], after[name], ptr(po, name), ptr(pn, name), name);
    } else if (name in after) {
      // A property the old schema did not name: old receivers reject it only when the old object was closed.
      add(
        'property-added',
        `has a new property \`${name}\`${closed(o) ? ' (the old object was closed)' : ''}`,
        closed(o) ? 'receivers' : 'none',
        [withKey('new', name, after[name])],
        { o: isRecord(o.properties) ? `${po}/properties` : po, n: ptr(pn, name) },
      );
    } else {
      add(
        'property-removed',
        `no longer names \`${name}\`${closed(n) ? ' (the new object is closed)' : ''}`,
        closed(n) ? 'senders' : 'none',
        [withKey('old', name, before[name])],
        { o: ptr(po, name), n: isRecord(n.properties) ? `${pn}/properties` : pn },
      );
    }
  }
}

function closure(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
    const before = o[keyword];
    const after = n[keyword];
    if (equal(before, after)) continue;
    const pointers = {
      ...(keyword in o ? { o: `${po}/${keyword}` } : { o: po }),
      ...(keyword in n ? { n: `${pn}/${keyword}` } : { n: pn }),
    };
    const open = (x: unknown) => x === undefined || x === true;
    if (before === false && after !== false)
      add(
        'object-opened',
        `now takes properties it does not name (\`${keyword}\`)`,
        'receivers',
        [withKey('new', WITNESS_KEY, after ?? {})],
        pointers,
      );
    else if (after === false && before !== false)
      add(
        'object-closed',
        `no longer takes properties it does not name (\`${keyword}\`)`,
        'senders',
        [withKey('old', WITNESS_KEY, before ?? {})],
        pointers,
      );
    else if (!open(before) || !open(after))
      deeper(here, before ?? true, after ?? true, pointers.o, pointers.n, WITNESS_KEY);
  }
}

function arrays(here: Here): void {
  const { o, n, po, pn, add } = here;
  if (!equal(o.items, n.items)) {
    if (o.items !== undefined && n.items !== undefined)
      deeper(here, o.items, n.items, `${po}/items`, `${pn}/items`, '0');
    else
      add(
        n.items === undefined ? 'items-removed' : 'items-added',
        n.items === undefined ? 'items are no longer constrained' : 'items are now constrained',
        n.items === undefined ? 'receivers' : 'senders',
        [],
      );
  }
  const before = Array.isArray(o.prefixItems) ? o.prefixItems : [];
  const after = Array.isArray(n.prefixItems) ? n.prefixItems : [];
  for (let i = 0; i < Math.max(before.length, after.length); i += 1) {
    if (i < before.length && i < after.length)
      deeper(here, before[i], after[i], `${po}/prefixItems/${i}`, `${pn}/prefixItems/${i}`, String(i));
    else
      add(
        i < after.length ? 'prefix-item-added' : 'prefix-item-removed',
        `item ${i} is ${i < after.length ? 'now' : 'no longer'} constrained`,
        i < after.length ? 'senders' : 'receivers',
        [],
      );
  }
}

/** The key a union's branch is matched by across versions: the type it names, else its tag, else its position. */
function branchKey(branch: unknown, index: number): string {
  if (!isRecord(branch)) return `#${index}`;
  const ref = refTypeName(branch.$ref);
  if (ref) return `ref:${ref}`;
  if ('const' in branch) return `const:${JSON.stringify(branch.const)}`;
  if (isRecord(branch.properties))
    for (const [name, p] of Object.entries(branch.properties))
      if (isRecord(p) && 'const' in p) return `tag:${name}=${JSON.stringify(p.const)}`;
  if (typeof branch.type === 'string' && !isRecord(branch.properties) && !('items' in branch))
    return `type:${branch.type}`;
  return `#${index}`;
}

function branches(here: Here, keyword: 'anyOf' | 'oneOf'): void {
  const { o, n, po, pn, add } = here;
  const before = Array.isArray(o[keyword]) ? (o[keyword] as unknown[]) : undefined;
  const after = Array.isArray(n[keyword]) ? (n[keyword] as unknown[]) : undefined;
  if (equal(before, after)) return;
  if (!before || !after) {
    add(
      `${keyword}-${after ? 'added' : 'removed'}`,
      `\`${keyword}\` ${after ? 'added' : 'removed'}`,
      after ? 'senders' : 'receivers',
      [],
      {
        o: before ? `${po}/${keyword}` : po,
        n: after ? `${pn}/${keyword}` : pn,
      },
    );
    return;
  }
  const keyed = (xs: unknown[]) => new Map(xs.map((x, i) => [branchKey(x, i), i]));
  const bk = keyed(before);
  const ak = keyed(after);
  const lone = (mine: Map<string, number>, theirs: Map<string, number>) =>
    [...mine].filter(([k]) => !theirs.has(k));
  const gone = lone(bk, ak);
  const come = lone(ak, bk);
  if (gone.length === 1 && come.length === 1) {
    // One branch replaced by another (`string` by `Role`): the same place, compared as such.
    const [[oldKey, j], [newKey, i]] = [gone[0] as [string, number], come[0] as [string, number]];
    bk.delete(oldKey);
    ak.delete(newKey);
    deeper(here, before[j], after[i], `${po}/${keyword}/${j}`, `${pn}/${keyword}/${i}`);
  }
  for (const [key, i] of ak) {
    const j = bk.get(key);
    const branch = after[i];
    if (j === undefined) {
      add(
        'branch-added',
        `takes a new kind of value (${describeBranch(branch)})`,
        'receivers',
        [setFrom('new', branch)],
        {
          o: `${po}/${keyword}`,
          n: `${pn}/${keyword}/${i}`,
        },
      );
      continue;
    }
    deeper(here, before[j], branch, `${po}/${keyword}/${j}`, `${pn}/${keyword}/${i}`);
  }
  for (const [key, j] of bk)
    if (!ak.has(key))
      add(
        'branch-removed',
        `no longer takes ${describeBranch(before[j])}`,
        'senders',
        [setFrom('old', before[j])],
        {
          o: `${po}/${keyword}/${j}`,
          n: `${pn}/${keyword}`,
        },
      );
}

function allOf(here: Here): void {
  const { o, n, po, pn, at, add } = here;
  const before = Array.isArray(o.allOf) ? o.allOf : [];
  const after = Array.isArray(n.allOf) ? n.allOf : [];
  if (equal(before, after)) return;
  const bk = new Map(before.map((x, i) => [branchKey(x, i), i]));
  const ak = new Map(after.map((x, i) => [branchKey(x, i), i]));
  for (const [key, i] of ak) {
    const j = bk.get(key);
    if (j === undefined)
      add('all-of-added', `must now also match ${describeBranch(after[i])}`, 'senders', [], {
        o: po,
        n: `${pn}/allOf/${i}`,
      });
    else
      deeper(here, before[j], after[i], `${po}/allOf/${j}`, `${pn}/allOf/${i}`, undefined, {
        old: at.old,
        new: at.new,
      });
  }
  for (const [key, j] of bk)
    if (!ak.has(key))
      add('all-of-removed', `need no longer match ${describeBranch(before[j])}`, 'receivers', [], {
        o: `${po}/allOf/${j}`,
        n: pn,
      });
}

function bounds(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const before = typeof o[keyword] === 'number' ? (o[keyword] as number) : undefined;
    const after = typeof n[keyword] === 'number' ? (n[keyword] as number) : undefined;
    if (before === after) continue;
    const lower = LOWER_BOUNDS.includes(keyword);
    // Which side is looser: an absent bound is the loosest.
    const tighter =
      before === undefined ? 'new' : after === undefined ? 'old' : lower === after > before ? 'new' : 'old';
    const loose = tighter === 'new' ? before : after;
    const tight = (tighter === 'new' ? after : before) as number;
    const accept = tighter === 'new' ? 'old' : 'new';
    add(
      tighter === 'new' ? 'bound-tightened' : 'bound-loosened',
      `\`${keyword}\` ${before ?? 'none'} → ${after ?? 'none'}`,
      tighter === 'new' ? 'senders' : 'receivers',
      [boundary(accept, accept === 'old' ? o : n, keyword, lower, loose, tight)],
      { o: keyword in o ? `${po}/${keyword}` : po, n: keyword in n ? `${pn}/${keyword}` : pn },
      [keyword],
    );
  }
}

/** A value on the loose side of a bound and outside the tight one. */
function boundary(
  accept: 'old' | 'new',
  schema: Record<string, unknown>,
  keyword: string,
  lower: boolean,
  loose: number | undefined,
  tight: number,
): Mutation {
  const exclusive = keyword.startsWith('exclusive');
  const size = lower ? (loose ?? Math.max(0, tight - 1)) : (loose ?? tight + 1);
  const number =
    exclusive && loose !== undefined
      ? (loose + tight) / 2
      : lower
        ? (loose ?? tight - 1)
        : (loose ?? tight + 1);
  return {
    accept,
    apply: (node, tools) => {
      if (keyword.endsWith('Length')) return 'x'.repeat(size);
      if (keyword.endsWith('Items')) {
        const item =
          Array.isArray(node) && node.length > 0
            ? node[0]
            : sample(schema.items ?? {}, tools.resolve[accept]);
        return Array.from({ length: size }, () => item);
      }
      if (keyword.endsWith('Properties')) {
        const base = isRecord(node) ? { ...node } : {};
        for (let i = Object.keys(base).length; i < size; i += 1) base[`${WITNESS_KEY}${i}`] = null;
        const keys = Object.keys(base);
        return lower ? Object.fromEntries(keys.slice(0, size).map((k) => [k, base[k]])) : base;
      }
      return number;
    },
  };
}

function strings(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of ['pattern', 'format'] as const) {
    if (equal(o[keyword], n[keyword])) continue;
    const verb = o[keyword] === undefined ? 'added' : n[keyword] === undefined ? 'removed' : 'changed';
    const mutations: Mutation[] = [];
    // A value in the format one side checks and the other does not: the format's sample, or a plain word.
    if (keyword === 'format') {
      if (n.format !== undefined) mutations.push(set('old', 'x'));
      if (o.format !== undefined) mutations.push(set('new', 'x'));
      if (n.format !== undefined)
        mutations.push({
          accept: 'new',
          apply: (_x, t) => sample({ type: 'string', format: n.format }, t.resolve.new),
        });
      if (o.format !== undefined)
        mutations.push({
          accept: 'old',
          apply: (_x, t) => sample({ type: 'string', format: o.format }, t.resolve.old),
        });
    }
    add(
      `${keyword}-${verb}`,
      `\`${keyword}\` ${short(o[keyword])} → ${short(n[keyword])}`,
      verb === 'added' ? 'senders' : verb === 'removed' ? 'receivers' : 'both',
      mutations,
      { o: keyword in o ? `${po}/${keyword}` : po, n: keyword in n ? `${pn}/${keyword}` : pn },
    );
  }
}

// Values of every JSON type: for a constraint with no value of its own to try (a new `enum`, `not`, `pattern`), one of
// them often lies on one side of it and not the other.
const PROBES: unknown[] = [WITNESS_KEY, '', 0, 0.5, -1, true, null, {}, [], [0], [WITNESS_KEY], [null]];

/** Tries plain values of every type at the change's place. */
function probe(accept: 'old' | 'new'): Mutation {
  return { accept, apply: (node) => node, alternatives: () => PROBES };
}

function set(accept: 'old' | 'new', value: unknown): Mutation {
  return { accept, apply: () => value };
}

/** Puts a sample of a schema of the accepting side at the change's place. */
function setFrom(accept: 'old' | 'new', schema: unknown, dropConst = false): Mutation {
  const ref = isRecord(schema) ? refTypeName(schema.$ref) : undefined;
  return {
    accept,
    ...(ref ? { alternatives: (tools: MutationTools) => tools.examples[accept](ref) } : {}),
    apply: (node, tools) => {
      if (dropConst && isRecord(schema)) {
        const { const: _c, ...rest } = schema;
        const value = sample(rest, tools.resolve[accept]);
        return equal(value, node) ? `${String(node)}${WITNESS_KEY}` : value;
      }
      return sample(schema, tools.resolve[accept]);
    },
  };
}

/** Puts a sample of the type a reference names at the change's place. */
function setRef(accept: 'old' | 'new', ref: unknown): Mutation {
  return setFrom(accept, { $ref: ref });
}

/** Removes a key from the object at the change's place. */
function drop(accept: 'old' | 'new', key: string): Mutation {
  return {
    accept,
    key,
    apply: (node) => {
      if (!isRecord(node)) return node;
      const { [key]: _gone, ...rest } = node;
      return rest;
    },
  };
}

/** Sets a key of the object at the change's place to a sample of its schema (keeping a value it already has). */
function withKey(accept: 'old' | 'new', key: string, schema: unknown): Mutation {
  return {
    accept,
    key,
    apply: (node, tools) => {
      if (!isRecord(node)) return node;
      if (key in node) return node;
      const value = sample(schema, tools.resolve[accept]);
      return value === undefined ? node : { ...node, [key]: value };
    },
  };
}

function describeBranch(branch: unknown): string {
  if (!isRecord(branch)) return short(branch);
  const ref = refTypeName(branch.$ref);
  if (ref) return ref;
  const key = branchKey(branch, 0);
  return key.startsWith('#') ? short(branch) : key.replace(/^(type|const|tag):/, '');
}

function where(at: Location): string {
  return at.steps.length === 0
    ? ''
    : `${at.steps.map((s) => (s.token === WITNESS_KEY ? '*' : s.token)).join('.')}: `;
}

function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Deep equality of JSON values. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => equal(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && equal(a[k], b[k]));
}
