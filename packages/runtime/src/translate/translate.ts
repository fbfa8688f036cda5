// Translators between two versions of a protocol, compiled from a translation table: the data a protocol's
// `schemas/<id>/translate-<from>.yaml` holds, which the generator checks against `agentproto diff` and emits into the
// protocol package. A table says, per type of the `from` version, how its values become values of the `to` version
// (`up`) and back (`down`): fields that move, enum spellings, constants only one side has, unions discriminated by a
// property on one side and by which member is present on the other. Whatever a rule does not name is copied as it is,
// so open objects keep their extra fields both ways. A value of the wrong shape is passed through untouched: the
// receiving side's validators report it, with their pointers; translation never throws on input.

import { compilePathTemplate } from '../http/path-template.js';

/** A JSON object. */
type Obj = Record<string, unknown>;

/** How one field (a path of property names joined with `/`, from the type's root) crosses between the versions. */
export interface FieldRule {
  /** The field exists only on the `from` side, with this value: dropped going up, written going down. */
  const?: unknown;
  /** The value is translated through this table of `TranslationTable.enums`. */
  enum?: string;
  /** The value is a value of this `from` type. */
  type?: string;
  /** The value is an array of values of this `from` type. */
  items?: string;
  /** The value is an object whose values are values of this `from` type. */
  values?: string;
  /** Where the value lives on the `to` side (a path from the type's root); the same path when omitted. */
  move?: string;
  /** The value is a boolean that means the opposite on the other side (`blocking` and `returnImmediately`). */
  negate?: boolean;
  /**
   * What an absent field means, on both sides (ProtoJSON leaves a field out when it holds its type's default: an absent
   * bool is false). Read as this value when absent; left out when the translated value equals it.
   */
  default?: unknown;
  /**
   * A list on the `from` side, one value on the `to` side: going up its first item (the others are lost, which the
   * manifest says where it uses this), going down a list of one.
   */
  one?: boolean;
  /**
   * The field exists only on the `from` side and is computed going down: true when the value at `from` (a path of the
   * translated value) is one of `in`. Going up it is dropped: the other side says the same thing another way.
   */
  derive?: { from: string; in: readonly unknown[] };
  /**
   * The `to` side allows any JSON value where the `from` side needs an object: going down, a value that is not an
   * object is boxed as `{ <key>: value }` and `flag` (a path) is set to true; going up, a flagged box is opened and
   * the flag dropped.
   */
  box?: { key: string; flag: string };
  /**
   * A resource name on the `from` side (`tasks/{taskId}/pushNotificationConfigs/{id}`): going up, each `{variable}`
   * of the template is read out of it into the `to` field of that name; going down the name is written from them.
   */
  template?: string;
  /**
   * An object with no members means the field is not there: going up it is left out, as if absent (ProtoJSON writes
   * a message that holds only defaults as `{}`, where the `to` side requires a member of it). Going down an absent
   * value stays absent.
   */
  emptyIsAbsent?: boolean;
  /**
   * Where an absent value is read from going up: another path of the same `from` value (0.3's config id, left out,
   * is its task's id). Going down the field is written as it is: the `from` side then names it outright.
   */
  orFrom?: string;
}

/** One member of a union on the `from` side. */
export interface CaseRule {
  /** The member's own rule (a type of the table); or `fields` inline. */
  type?: string;
  fields?: Readonly<Record<string, FieldRule>>;
  /** On the `to` side the member is wrapped: `{ <wrap>: value }`. */
  wrap?: string;
  /** Going down without `wrap`: the member is the one whose `to` value has any of these properties. */
  when?: readonly string[];
  /** Going up in a union without `by`: the member is the one whose `from` value has any of these properties. */
  has?: readonly string[];
}

/** How one type of the `from` version becomes a type of the `to` version. */
export interface TypeRule {
  /** The `to` type (the same name when omitted). */
  to?: string;
  /** An object: its fields' rules. */
  fields?: Readonly<Record<string, FieldRule>>;
  /** A union on the `from` side, told apart by this property's value (or, without it, by each case's `has`). */
  by?: string;
  cases?: Readonly<Record<string, CaseRule>>;
  /** A scalar translated through this enum table. */
  enum?: string;
  /** An array of values of type `items` on the `from` side, the same array at property `at` of an object on the `to` side. */
  list?: { items: string; at: string };
}

/** A JSON-RPC method of the `from` version and the `to` method that serves it. */
export interface MethodRule {
  to: string;
  /** The `from` type of the method's params, translated up. */
  params?: string;
  /** The `from` type of its result (of each streamed result), translated down. */
  result?: string;
  /** The `from` side's result is always this value, whatever the `to` method answers (`null` for a deletion). */
  answer?: unknown;
}

/** An HTTP operation of the `from` version (by operationId) and the `to` operation that serves it. */
export interface OperationRule {
  to: string;
  /** The `from` type of the request body, translated up. */
  body?: string;
  /** The `from` type of the answer (of each streamed event), translated down. */
  result?: string;
  /** Path and query parameters of the `from` operation, by name, and the field of the `to` request each fills. */
  params?: Readonly<Record<string, string>>;
}

/** A translation table, as the generator emits it from the protocol's translation manifest. */
export interface TranslationTable {
  from: string;
  to: string;
  /** Enum spellings, `from` value → `to` value; each a one-to-one map. */
  enums: Readonly<Record<string, Readonly<Record<string, string>>>>;
  types: Readonly<Record<string, TypeRule>>;
  methods: Readonly<Record<string, MethodRule>>;
  operations: Readonly<Record<string, OperationRule>>;
}

/** The two directions of one type. */
export interface Codec {
  /** A `from` value as the `to` version writes it. */
  up(value: unknown): unknown;
  /** A `to` value as the `from` version writes it. */
  down(value: unknown): unknown;
}

/** A compiled table: a codec per `from` type, and the table it came from. */
export interface Translator {
  table: TranslationTable;
  /** The codec of `from` type `name`; throws for a type the table does not have (a programming error). */
  codec(name: string): Codec;
}

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const own = (o: Obj, k: string) => Object.hasOwn(o, k);

function getAt(v: unknown, path: readonly string[]): unknown {
  const only = path[0];
  if (path.length === 1 && only !== undefined) {
    return isObject(v) && own(v, only) ? v[only] : undefined;
  }
  let at = v;
  for (const k of path) {
    if (!isObject(at) || !own(at, k)) return undefined;
    at = at[k];
  }
  return at;
}

/** Sets an own property, whatever its name: `__proto__` from JSON is data, never the object's prototype. */
function put(o: Obj, k: string, value: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
  else o[k] = value;
}

function setAt(out: Obj, path: readonly string[], value: unknown): void {
  const only = path[0];
  if (path.length === 1 && only !== undefined) {
    put(out, only, value);
    return;
  }
  let at = out;
  for (const k of path.slice(0, -1)) {
    // A copy, never the object itself: it may be the input's, copied across by reference, and input is never written.
    const next = at[k];
    const made: Obj = isObject(next) && own(at, k) ? { ...next } : {};
    put(at, k, made);
    at = made;
  }
  const last = path[path.length - 1];
  if (last !== undefined) put(at, last, value);
}

/** The paths some rule reads or writes, as a tree: what the copy of everything else must leave out. */
interface Claimed {
  readonly [key: string]: Claimed | true;
}

/** {@link Claimed} while it is built. */
interface Claiming {
  [key: string]: Claiming | true;
}

function claim(paths: ReadonlyArray<readonly string[]>): Claimed {
  const root: Claiming = {};
  for (const path of paths) {
    let at = root;
    path.forEach((k, i) => {
      if (i === path.length - 1) at[k] = true;
      else {
        const next = at[k];
        if (next === true) return;
        if (next === undefined) {
          const made: Claiming = {};
          at[k] = made;
          at = made;
        } else at = next;
      }
    });
  }
  return root;
}

/** Copies every field of `v` no rule claims into `out`, at the same path. */
function copyRest(v: Obj, claimed: Claimed, out: Obj, path: string[]): void {
  for (const k in v) {
    if (!own(v, k)) continue;
    const c = own(claimed, k) ? claimed[k] : undefined;
    if (c === true) continue;
    const value = v[k];
    // At the root (the common case) a field is copied as it is, without building a path.
    if (path.length === 0 && (c === undefined || !isObject(value))) put(out, k, value);
    else if (c === undefined || !isObject(value)) setAt(out, [...path, k], value);
    // An object some rule reaches into keeps its other fields; an empty one stays, empty.
    else if (Object.keys(value).length === 0) setAt(out, [...path, k], {});
    else copyRest(value, c, out, [...path, k]);
  }
}

const split = (path: string) => path.split('/');

/** Compiles a table into codecs; each type's codec is built once, on first use, so rules may refer to each other. */
export function compileTranslation(table: TranslationTable): Translator {
  const codecs = new Map<string, Codec>();
  const enums = new Map<string, { up: Map<unknown, unknown>; down: Map<unknown, unknown> }>();
  for (const [name, pairs] of Object.entries(table.enums)) {
    const entries = Object.entries(pairs);
    enums.set(name, { up: new Map(entries), down: new Map(entries.map(([a, b]) => [b, a])) });
  }
  const enumOf = (name: string) => {
    const e = enums.get(name);
    if (!e) throw new Error(`translation ${table.from}→${table.to}: no enum table ${name}`);
    return e;
  };
  const codec = (name: string): Codec => {
    const known = codecs.get(name);
    if (known) return known;
    const rule = table.types[name];
    if (!rule) throw new Error(`translation ${table.from}→${table.to}: no rule for type ${name}`);
    // A placeholder first, so a rule that refers back to this type (a Task's history of Messages…) finds it; its
    // functions are replaced by the built ones, which callers read at each call (`c.up(v)`), so there is no hop.
    const forward: { up: Codec['up']; down: Codec['down'] } = {
      up: (v) => forward.up(v),
      down: (v) => forward.down(v),
    };
    codecs.set(name, forward);
    const built = buildType(rule);
    forward.up = built.up;
    forward.down = built.down;
    return forward;
  };
  const mapValue = (rule: FieldRule, up: boolean): ((v: unknown) => unknown) => {
    if (rule.enum !== undefined) {
      const e = enumOf(rule.enum);
      const m = up ? e.up : e.down;
      return (v) => (m.has(v) ? m.get(v) : v);
    }
    if (rule.type !== undefined) {
      const c = codec(rule.type);
      return up ? (v) => c.up(v) : (v) => c.down(v);
    }
    if (rule.items !== undefined) {
      const c = codec(rule.items);
      const f = up ? (v: unknown) => c.up(v) : (v: unknown) => c.down(v);
      return (v) => (Array.isArray(v) ? v.map(f) : v);
    }
    if (rule.values !== undefined) {
      const c = codec(rule.values);
      const f = up ? (v: unknown) => c.up(v) : (v: unknown) => c.down(v);
      return (v) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)])) : v);
    }
    if (rule.negate) return (v) => (typeof v === 'boolean' ? !v : v);
    if (rule.one) return up ? (v) => (Array.isArray(v) ? v[0] : v) : (v) => [v];
    return (v) => v;
  };
  const buildObject = (fields: Readonly<Record<string, FieldRule>>): Codec => {
    const rules = Object.entries(fields).map(([path, rule]) => ({
      rule,
      from: split(path),
      to: split(rule.move ?? path),
      flag: rule.box ? split(rule.box.flag) : undefined,
      orFrom: rule.orFrom === undefined ? undefined : split(rule.orFrom),
      upValue: mapValue(rule, true),
      downValue: mapValue(rule, false),
      template: rule.template === undefined ? undefined : compilePathTemplate(rule.template),
    }));
    const carried = rules.filter(
      (r) => r.rule.const === undefined && r.rule.derive === undefined && r.template === undefined,
    );
    const named = rules.filter((r) => r.template !== undefined);
    // Going up, the `from` paths of every rule (and the box flags) are claimed; going down, the `to` paths of the
    // fields that cross, and the `from` paths of the fields only the `from` side has (a stale `kind` is replaced).
    const claimedUp = claim([...rules.map((r) => r.from), ...rules.flatMap((r) => (r.flag ? [r.flag] : []))]);
    const claimedDown = claim([
      ...carried.map((r) => r.to),
      ...rules.filter((r) => !carried.includes(r) && !r.template).map((r) => r.from),
      ...rules.flatMap((r) => (r.flag ? [r.flag] : [])),
      ...named.flatMap((r) => r.template?.vars.map((k) => [k]) ?? []),
    ]);
    const derived = rules.flatMap((r) =>
      r.rule.derive ? [{ at: r.from, from: split(r.rule.derive.from), in: new Set(r.rule.derive.in) }] : [],
    );
    const consts = rules.filter((r) => r.rule.const !== undefined);
    return {
      up(v) {
        if (!isObject(v)) return v;
        const out: Obj = {};
        copyRest(v, claimedUp, out, []);
        for (const r of carried) {
          let got = getAt(v, r.from);
          if (got === undefined && r.orFrom) got = getAt(v, r.orFrom);
          let value = got === undefined ? r.rule.default : got;
          if (value === undefined) continue;
          if (r.rule.emptyIsAbsent && isObject(value) && Object.keys(value).length === 0) continue;
          if (r.rule.box && r.flag) {
            if (getAt(v, r.flag) === true && isObject(value) && own(value, r.rule.box.key))
              value = value[r.rule.box.key];
          } else value = r.upValue(value);
          if (r.rule.default !== undefined && value === r.rule.default) continue;
          setAt(out, r.to, value);
        }
        for (const r of named) {
          const value = getAt(v, r.from);
          const found = typeof value === 'string' ? r.template?.match(value) : undefined;
          // A name that does not fit the template stays where it was: the other side's validators report it.
          if (found) for (const [k, x] of Object.entries(found)) put(out, k, x);
          else if (value !== undefined) setAt(out, r.from, value);
        }
        return out;
      },
      down(v) {
        if (!isObject(v)) return v;
        const out: Obj = {};
        for (const r of consts) setAt(out, r.from, r.rule.const);
        copyRest(v, claimedDown, out, []);
        for (const r of carried) {
          const got = getAt(v, r.to);
          const value = got === undefined ? r.rule.default : got;
          if (value === undefined) continue;
          if (r.rule.box && r.flag) {
            if (isObject(value)) setAt(out, r.from, value);
            else {
              setAt(out, r.from, { [r.rule.box.key]: value });
              setAt(out, r.flag, true);
            }
          } else {
            const back = r.downValue(value);
            if (r.rule.default === undefined || back !== r.rule.default) setAt(out, r.from, back);
          }
        }
        for (const r of named) {
          const name = r.template?.fill(v);
          if (name !== undefined) setAt(out, r.from, name);
        }
        for (const d of derived) {
          const source = getAt(out, d.from);
          if (source !== undefined) setAt(out, d.at, d.in.has(source));
        }
        return out;
      },
    };
  };
  const buildUnion = (by: string | undefined, cases: Readonly<Record<string, CaseRule>>): Codec => {
    const members = Object.entries(cases).map(([value, c]) => {
      const own = by === undefined ? {} : { [by]: { const: value } };
      const inner = c.type !== undefined ? codec(c.type) : buildObject({ ...own, ...(c.fields ?? {}) });
      return { value, wrap: c.wrap, when: c.when ?? [], has: c.has ?? [], inner };
    });
    const byValue = new Map(members.map((m) => [m.value, m]));
    return {
      up(v) {
        if (!isObject(v)) return v;
        const tag = by === undefined ? undefined : v[by];
        const m =
          by === undefined
            ? members.find((x) => x.has.some((k) => Object.hasOwn(v, k)))
            : typeof tag === 'string'
              ? byValue.get(tag)
              : undefined;
        if (!m) return v;
        const value = m.inner.up(v);
        return m.wrap === undefined ? value : { [m.wrap]: value };
      },
      down(v) {
        if (!isObject(v)) return v;
        const m = members.find((x) =>
          x.wrap !== undefined ? own(v, x.wrap) : x.when.some((k) => own(v, k)),
        );
        if (!m) return v;
        const given = m.wrap === undefined ? v : v[m.wrap];
        const value = m.inner.down(given);
        if (!isObject(value) || by === undefined || value[by] === m.value) return value;
        // The tag first, as 0.3 writers put it; the inner codec made a fresh object, so it is ours to rebuild.
        return { [by]: m.value, ...value };
      },
    };
  };
  const buildType = (rule: TypeRule): Codec => {
    if (rule.enum !== undefined) {
      const e = enumOf(rule.enum);
      return {
        up: (v) => (e.up.has(v) ? e.up.get(v) : v),
        down: (v) => (e.down.has(v) ? e.down.get(v) : v),
      };
    }
    if (rule.cases !== undefined) return buildUnion(rule.by, rule.cases);
    if (rule.list !== undefined) {
      const { at } = rule.list;
      const c = codec(rule.list.items);
      return {
        up: (v) => (Array.isArray(v) ? { [at]: v.map((x) => c.up(x)) } : v),
        down: (v) => {
          const items = isObject(v) ? v[at] : undefined;
          return Array.isArray(items) ? items.map((x) => c.down(x)) : v;
        },
      };
    }
    return buildObject(rule.fields ?? {});
  };
  return { table, codec };
}

export { compilePathTemplate, type PathTemplate } from '../http/path-template.js';
export {
  type TranslatedCaller,
  type TranslatedHandler,
  type TranslatedInput,
  type TranslateHandlersOptions,
  translateClient,
  translateOperations,
  translateRpcHandlers,
} from './handlers.js';
