// Validate stage for translation manifests: every name a manifest uses exists in its version (types, fields, enum
// tables, JSON-RPC methods, HTTP operations), its rules are well-formed, and it maps every change `agentproto diff`
// finds between the two versions — the diff's changes are the list of what a translation has to handle, so a
// change no rule and no `unmatched` entry names fails generation, at the manifest, with the change's place.
import { compilePathTemplate, type FieldRule } from '@agentproto/runtime/translate';
import type { Diagnostic } from '../diagnostics.js';
import { diffSides, lineOf } from '../diff/diff.js';
import type { Change, DiffSide } from '../diff/diff-types.js';
import { ANY_METHOD } from '../diff/surface/rpc-errors.js';
import type { Shape, Shapes } from '../emit/translators/codecs/index.js';
import type { LoadedTranslation, TranslationManifest } from '../load/load-translations.js';
import { at } from '../load/source-file.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const SCHEMA_SUFFIX = '.schema.json';

/** The property names a type's values may have: its own, its branches' and those of the types it refers to. */
export function propertyNames(side: DiffSide, type: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (schema: unknown): void => {
    if (Array.isArray(schema)) {
      for (const s of schema) walk(s);
      return;
    }
    if (!isRecord(schema)) return;
    if (isRecord(schema.properties)) for (const k of Object.keys(schema.properties)) names.add(k);
    for (const k of ['oneOf', 'anyOf', 'allOf']) walk(schema[k]);
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.endsWith(SCHEMA_SUFFIX))
      visit(ref.slice(ref.lastIndexOf('/') + 1, -SCHEMA_SUFFIX.length));
  };
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    walk(side.types.get(name)?.value);
  };
  visit(type);
  return names;
}

/**
 * The shapes of both sides' types, as the translators' fast paths take them: every property a value may have
 * (propertyNames) and those its schema requires at the top.
 */
export function translationShapes(sides: { from: DiffSide; to: DiffSide }): Shapes {
  const shape = (side: DiffSide, type: string): Shape | undefined => {
    const schema = side.types.get(type)?.value;
    if (!isRecord(schema)) return undefined;
    const required = Array.isArray(schema.required)
      ? schema.required.filter((k): k is string => typeof k === 'string')
      : [];
    return { properties: [...propertyNames(side, type)], required };
  };
  return { from: (type) => shape(sides.from, type), to: (type) => shape(sides.to, type) };
}

/** The operationIds of a side's HTTP surface, with the `METHOD /path` the diff names each by. */
function operations(side: DiffSide): Map<string, string> {
  const out = new Map<string, string>();
  const paths = isRecord(side.openapi?.value) ? side.openapi.value.paths : undefined;
  if (!isRecord(paths)) return out;
  for (const [p, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, op] of Object.entries(item))
      if (isRecord(op) && typeof op.operationId === 'string')
        out.set(op.operationId, `${method.toUpperCase()} ${p}`);
  }
  return out;
}

/** The JSON-RPC method names of a side. */
function methods(side: DiffSide): Set<string> {
  const list = isRecord(side.openrpc?.value) ? side.openrpc.value.methods : undefined;
  return new Set(
    Array.isArray(list)
      ? list.flatMap((m) => (isRecord(m) && typeof m.name === 'string' ? [m.name] : []))
      : [],
  );
}

/** The kinds of field rule; a field takes at most one. */
const KINDS = [
  'const',
  'enum',
  'type',
  'items',
  'values',
  'negate',
  'one',
  'derive',
  'box',
  'template',
] as const;

/** Changes whose pointer names a property that must be mentioned; the others are about constraints, which copy. */
const SHAPE_RULES = new Set([
  'property-added',
  'property-removed',
  'enum-value-added',
  'enum-value-removed',
  'enum-added',
  'enum-removed',
  'const-added',
  'const-changed',
  'const-removed',
  'type-narrowed',
  'ref-added',
  'ref-changed',
  'ref-removed',
  'schema-replaced',
  'items-added',
  'items-removed',
]);

/** The first property a pointer inside a type's schema is under (`/oneOf/1/properties/raw/type` → `raw`). */
function firstProperty(pointer: string): string | undefined {
  const parts = pointer.split('/');
  const i = parts.indexOf('properties');
  return i >= 0 ? parts[i + 1]?.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/**
 * Checks one translation manifest against its two versions (as the diff reads them). Returns the diagnostics, each
 * at a pointer of the manifest; the coverage ones name the change's file and line too.
 */
export function validateTranslation(
  translation: LoadedTranslation,
  from: DiffSide,
  to: DiffSide,
  diff: (a: DiffSide, b: DiffSide) => Change[] = (a, b) => diffSides(a, b, { lines: false }).changes,
): Diagnostic[] {
  const { source } = translation;
  const m: TranslationManifest = source.value;
  const out: Diagnostic[] = [];
  const say = (pointer: string, message: string) => out.push({ ...at(source, pointer), message });
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const fromOps = operations(from);
  const toOps = operations(to);
  const fromMethods = methods(from);
  const toMethods = methods(to);

  // Names.
  for (const [name, table] of Object.entries(m.enums)) {
    const seen = new Map<string, string>();
    for (const [a, b] of Object.entries(table)) {
      const other = seen.get(b);
      if (other !== undefined)
        say(
          `/enums/${esc(name)}/${esc(a)}`,
          `"${a}" and "${other}" both map to "${b}": an enum table must map one to one`,
        );
      seen.set(b, a);
    }
  }
  const typeRef = (pointer: string, name: string | undefined) => {
    if (name !== undefined && !(name in m.types)) say(pointer, `no rule for type "${name}" under types`);
  };
  const checkFields = (
    pointer: string,
    fields: Readonly<Record<string, FieldRule>>,
    fromType: string,
    toType: string | undefined,
  ) => {
    const fromProps = propertyNames(from, fromType);
    const toProps = toType === undefined ? undefined : propertyNames(to, toType);
    for (const [field, rule] of Object.entries(fields)) {
      const p = `${pointer}/${esc(field)}`;
      const kinds = KINDS.filter((k) => rule[k] !== undefined);
      if (kinds.length > 1)
        say(p, `a field takes one of ${KINDS.join(', ')}; this one has ${kinds.join(' and ')}`);
      const head = field.split('/')[0] ?? '';
      if (!fromProps.has(head)) say(p, `${from.label} ${fromType} has no property "${head}"`);
      const onlyFrom = rule.const !== undefined || rule.derive !== undefined || rule.template !== undefined;
      let vars: readonly string[] = [];
      try {
        vars = rule.template === undefined ? [] : compilePathTemplate(rule.template).vars;
      } catch (error) {
        say(`${p}/template`, error instanceof Error ? error.message : String(error));
      }
      for (const v of vars)
        if (toProps && !toProps.has(v))
          say(`${p}/template`, `${to.label} ${toType} has no property "${v}" for {${v}}`);
      if (onlyFrom && rule.move !== undefined) say(`${p}/move`, 'a field only one side has does not move');
      const target = (rule.move ?? field).split('/')[0] ?? '';
      if (!onlyFrom && toProps && !toProps.has(target))
        say(rule.move === undefined ? p : `${p}/move`, `${to.label} ${toType} has no property "${target}"`);
      if (rule.enum !== undefined && !(rule.enum in m.enums))
        say(`${p}/enum`, `no enum table "${rule.enum}" under enums`);
      for (const k of ['type', 'items', 'values'] as const) typeRef(`${p}/${k}`, rule[k]);
    }
  };
  for (const [name, rule] of Object.entries(m.types)) {
    const p = `/types/${esc(name)}`;
    const target = rule.to ?? name;
    if (!from.types.has(name)) {
      say(p, `${from.label} has no type "${name}"`);
      continue;
    }
    if (!to.types.has(target))
      say(rule.to === undefined ? p : `${p}/to`, `${to.label} has no type "${target}"`);
    if (rule.by !== undefined && rule.cases === undefined) say(p, 'a union with `by` names its `cases`');
    if (rule.by !== undefined && rule.fields !== undefined)
      say(`${p}/fields`, "a union's fields go in its cases");
    if (rule.enum !== undefined && !(rule.enum in m.enums))
      say(`${p}/enum`, `no enum table "${rule.enum}" under enums`);
    if (rule.list) {
      typeRef(`${p}/list/items`, rule.list.items);
      if (!propertyNames(to, target).has(rule.list.at))
        say(`${p}/list/at`, `${to.label} ${target} has no property "${rule.list.at}"`);
    }
    if (rule.fields) checkFields(`${p}/fields`, rule.fields, name, target);
    for (const [value, c] of Object.entries(rule.cases ?? {})) {
      const cp = `${p}/cases/${esc(value)}`;
      typeRef(`${cp}/type`, c.type);
      if (c.type !== undefined && c.fields !== undefined)
        say(cp, 'a case takes `type` or `fields`, not both');
      if (c.wrap === undefined && c.when === undefined)
        say(cp, 'a case says how the other side tells it: `wrap` or `when`');
      if (rule.by === undefined && c.has === undefined)
        say(cp, 'a case of a union without `by` says which properties tell it: `has`');
      if (c.fields) checkFields(`${cp}/fields`, c.fields, name, c.wrap === undefined ? target : undefined);
    }
  }
  for (const [name, rule] of Object.entries(m.methods)) {
    const p = `/methods/${esc(name)}`;
    if (!fromMethods.has(name)) say(p, `${from.label} has no JSON-RPC method "${name}"`);
    if (!toMethods.has(rule.to)) say(`${p}/to`, `${to.label} has no JSON-RPC method "${rule.to}"`);
    typeRef(`${p}/params`, rule.params);
    typeRef(`${p}/result`, rule.result);
  }
  for (const [name, rule] of Object.entries(m.operations)) {
    const p = `/operations/${esc(name)}`;
    if (!fromOps.has(name)) say(p, `${from.label} has no HTTP operation "${name}"`);
    if (!toOps.has(rule.to)) say(`${p}/to`, `${to.label} has no HTTP operation "${rule.to}"`);
    typeRef(`${p}/body`, rule.body);
    typeRef(`${p}/result`, rule.result);
  }
  const exists = (name: string): boolean => {
    const [type, field] = name.split('.');
    if (field !== undefined && type !== undefined)
      return propertyNames(from, type).has(field) || propertyNames(to, type).has(field);
    return (
      from.types.has(name) ||
      to.types.has(name) ||
      fromMethods.has(name) ||
      toMethods.has(name) ||
      fromOps.has(name) ||
      toOps.has(name)
    );
  };
  for (const name of Object.keys(m.unmatched ?? {}))
    if (!exists(name)) say(`/unmatched/${esc(name)}`, `neither ${from.label} nor ${to.label} has "${name}"`);
  if (out.length > 0) return out;

  // Coverage: every change the diff finds is about something the manifest names.
  const unmatched = new Set(Object.keys(m.unmatched ?? {}));
  const mentioned = new Map<string, Set<string>>();
  const mention = (type: string, field: string) => {
    const set = mentioned.get(type) ?? new Set<string>();
    set.add(field.split('/')[0] ?? field);
    mentioned.set(type, set);
  };
  const mappedTypes = new Set<string>();
  for (const [name, rule] of Object.entries(m.types)) {
    const target = rule.to ?? name;
    mappedTypes.add(name).add(target);
    const fields = [rule.fields ?? {}, ...Object.values(rule.cases ?? {}).map((c) => c.fields ?? {})];
    if (rule.by !== undefined) mention(name, rule.by);
    for (const f of fields)
      for (const [field, r] of Object.entries(f)) {
        mention(name, field);
        mention(target, r.move ?? field);
        if (r.box) mention(name, r.box.flag);
      }
  }
  const mappedMethods = new Set([...Object.keys(m.methods), ...Object.values(m.methods).map((r) => r.to)]);
  // A path both sides have (the well-known card) names an operation of each: either being mapped covers it.
  const opNames = new Map<string, string[]>();
  for (const [id, where] of [...fromOps, ...toOps]) opNames.set(where, [...(opNames.get(where) ?? []), id]);
  const mappedOps = new Set([...Object.keys(m.operations), ...Object.values(m.operations).map((r) => r.to)]);
  const covered = (c: Change): boolean => {
    if (c.area === 'type') {
      if (unmatched.has(c.subject)) return true;
      const field = SHAPE_RULES.has(c.rule)
        ? firstProperty(c.old?.pointer ?? c.new?.pointer ?? '')
        : undefined;
      if (field === undefined) return mappedTypes.has(c.subject);
      return unmatched.has(`${c.subject}.${field}`) || (mentioned.get(c.subject)?.has(field) ?? false);
    }
    if (c.area === 'method') {
      // A code the documents declare for every method crosses with the methods, as a code: mapping one covers it.
      if (c.subject === ANY_METHOD) return mappedMethods.size > 0;
      const name = c.subject.split(' ')[0] ?? c.subject;
      return mappedMethods.has(name) || unmatched.has(name);
    }
    const where = /^[A-Z]+ \S+/.exec(c.subject)?.[0];
    const ids = where === undefined ? undefined : opNames.get(where);
    if (ids !== undefined) return ids.some((id) => mappedOps.has(id) || unmatched.has(id));
    return mappedMethods.has(c.subject) || unmatched.has(c.subject);
  };
  for (const c of diff(from, to)) {
    if (covered(c)) continue;
    const site = c.old ?? c.new;
    const line = site ? lineOf(site, [from, to]) : undefined;
    const place = site ? ` (${site.file}${line === undefined ? '' : `:${line}`} ${site.pointer || '/'})` : '';
    const field =
      c.area === 'type' && SHAPE_RULES.has(c.rule) ? firstProperty(site?.pointer ?? '') : undefined;
    const name = field === undefined ? c.subject : `${c.subject}.${field}`;
    say(
      '',
      `agentproto diff ${from.label} ${to.label} finds ${c.rule} in ${c.subject}${place}: ${c.message}; no rule maps ${name} — add one, or list "${name}" under unmatched with the reason`,
    );
  }
  return out;
}
