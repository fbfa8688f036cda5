// The error path of a union (`oneOf`, `anyOf`): before collecting errors, pick the branch the message's own members
// name, and report that branch's errors alone, as ajv's `discriminator` does for a tag. ajv otherwise runs every branch
// with error collection and keeps all their errors, which for a union of object types costs more than the rest of the
// message. Two shapes name their branch, each exactly, on an object:
//   - member-keyed: each branch requires a member no other branch names; when exactly one of those members is
//     present, every other branch fails its `required`, so the union holds exactly when that branch does;
//   - tagged: each branch gives one property (the same in all) a distinct `const` (or `enum`); when the value has one
//     of them, every other branch fails that property, so again the union holds exactly when that branch does.
// With no member present, or several, or a tag no branch names, ajv's own code runs as before (every branch, every
// error). The verdict is ajv's in every case; only the errors of a picked union are narrower.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { _, getProperty, or } from 'ajv/dist/compile/codegen/index.js';
import { checkDataTypes, DataType } from 'ajv/dist/compile/validate/dataType.js';
import type { KeywordCxt } from 'ajv/dist/compile/validate/index.js';
import type { CodeKeywordDefinition } from 'ajv/dist/types/index.js';

/** How the branch of a union is named by the value: by which member is present, or by the value of a tag. */
export type Picker =
  | { kind: 'member'; members: string[] }
  | { kind: 'tag'; property: string; values: Array<Array<string | number | boolean>> };

/** The schema a `$ref` names, from the base URI it is read against; undefined when it cannot be found. */
export type ResolveRef = (ref: string, base: string) => unknown;

// Keywords that say nothing about validity: a branch of a lone `$ref` beside them is that reference.
const ANNOTATIONS = new Set(['$comment', 'title', 'description', 'deprecated', 'examples']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The way the value names one branch of `branches`, or undefined when it does not. A branch that is a lone `$ref`
 * is read through it (its target's top-level `required` and `properties` bind the branch alike).
 */
export function pickerOf(
  branches: readonly unknown[],
  base: string,
  resolve: ResolveRef,
): Picker | undefined {
  if (branches.length < 2) return undefined;
  const read: Array<Record<string, unknown>> = [];
  for (const branch of branches) {
    if (!isObject(branch)) return undefined;
    const ref = branch.$ref;
    if (ref === undefined) {
      read.push(branch);
      continue;
    }
    if (typeof ref !== 'string' || Object.keys(branch).some((k) => k !== '$ref' && !ANNOTATIONS.has(k)))
      return undefined;
    const target = resolve(ref, base);
    if (!isObject(target)) return undefined;
    read.push(target);
  }
  // A tag says which branch the sender meant; members only which one the message looks like.
  return tagPicker(read) ?? memberPicker(read);
}

function memberPicker(branches: ReadonlyArray<Record<string, unknown>>): Picker | undefined {
  const required = branches.map((b) =>
    Array.isArray(b.required) ? b.required.filter((k): k is string => typeof k === 'string') : [],
  );
  // Every member a branch names, required or not.
  const named = branches.map(
    (b, i) => new Set([...(required[i] ?? []), ...Object.keys(isObject(b.properties) ? b.properties : {})]),
  );
  const members: string[] = [];
  for (const [i, own] of required.entries()) {
    // The first member this branch requires and no other branch names: a member another branch also allows
    // (an optional `mode`, say) would pick this branch for a message meant for that one, and report the wrong faults.
    const member = own.find((k) => named.every((other, j) => j === i || !other.has(k)));
    if (member === undefined) return undefined;
    members.push(member);
  }
  return { kind: 'member', members };
}

function tagPicker(branches: ReadonlyArray<Record<string, unknown>>): Picker | undefined {
  const first = branches[0]?.properties;
  if (!isObject(first)) return undefined;
  // Each candidate property in the first branch's order; the first one every branch tags distinctly wins.
  for (const property of Object.keys(first)) {
    const values: Array<Array<string | number | boolean>> = [];
    const seen = new Set<string>();
    for (const b of branches) {
      const schema = isObject(b.properties) ? b.properties[property] : undefined;
      const listed = isObject(schema) ? ('const' in schema ? [schema.const] : schema.enum) : undefined;
      // Strings, numbers and booleans only: ajv's `const` and `enum` compare those by value, as `===` does.
      const own = Array.isArray(listed)
        ? listed.filter((v): v is string | number | boolean =>
            ['string', 'number', 'boolean'].includes(typeof v),
          )
        : [];
      if (own.length === 0 || own.length !== (Array.isArray(listed) ? listed.length : -1)) break;
      if (own.some((v) => seen.has(JSON.stringify(v)))) break;
      for (const v of own) seen.add(JSON.stringify(v));
      values.push(own);
    }
    if (values.length === branches.length) return { kind: 'tag', property, values };
  }
  return undefined;
}

// JSON Schema's type names (2020-12 validation §6.1.1), as ajv's type checks take them.
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;
type JsonType = (typeof JSON_TYPES)[number];
const isJsonType = (v: unknown): v is JsonType => JSON_TYPES.some((t) => t === v);

/** The types of a union whose every branch is `{type: <one type>}` (annotations aside), or undefined. */
export function bareTypes(branches: readonly unknown[]): JsonType[] | undefined {
  const types: JsonType[] = [];
  for (const branch of branches) {
    if (!isObject(branch) || !isJsonType(branch.type)) return undefined;
    if (Object.keys(branch).some((k) => k !== 'type' && !ANNOTATIONS.has(k))) return undefined;
    types.push(branch.type);
  }
  return types.length > 0 ? types : undefined;
}

/**
 * Replaces ajv's `oneOf` and `anyOf` in `ajv` (which must report every error: `allErrors`) by the same keywords
 * with a branch picked first where the union allows it. Each keyword keeps its place in ajv's order, so the errors
 * come out in the same order and `unevaluatedProperties` still sees what the branches evaluated.
 */
export function pickBranches(ajv: Ajv2020, resolve: ResolveRef): void {
  if (ajv.opts.allErrors !== true) throw new Error('pickBranches: the validators must report every error');
  // ajv's own order: `anyOf` before `oneOf` before `allOf`.
  for (const [keyword, before] of [
    ['oneOf', 'allOf'],
    ['anyOf', 'oneOf'],
  ] as const) {
    const rule = ajv.getKeyword(keyword);
    if (typeof rule !== 'object' || !('code' in rule))
      throw new Error(`pickBranches: ajv's ${keyword} is not a code keyword`);
    const original = rule.code;
    const definition: CodeKeywordDefinition = {
      ...rule,
      keyword,
      before,
      code: (cxt) => pickThenApply(cxt, resolve, () => original(cxt)),
    };
    ajv.removeKeyword(keyword);
    ajv.addKeyword(definition);
  }
}

/**
 * Emits: the index of the branch the value names (or -1), then that branch alone when there is one, and ajv's own
 * code for the union (`apply`) when there is not.
 */
function pickThenApply(cxt: KeywordCxt, resolve: ResolveRef, apply: () => void): void {
  const { gen, data, schema, keyword, parentSchema, it } = cxt;
  // `anyOf` of bare types (`RequestId`: a string or an integer): a value of one of them holds without running the
  // branches, which would make (and then drop) the error of each branch tried before the one that holds. A value of
  // none runs ajv's code, every branch's error as before.
  const types = keyword === 'anyOf' && Array.isArray(schema) ? bareTypes(schema) : undefined;
  if (types) {
    gen.if(checkDataTypes(types, data, it.opts.strictNumbers, DataType.Wrong), apply);
    return;
  }
  // A union under ajv's `discriminator` already picks by its tag.
  const discriminated = keyword === 'oneOf' && it.opts.discriminator && parentSchema.discriminator;
  const picker = Array.isArray(schema) && !discriminated ? pickerOf(schema, it.baseId, resolve) : undefined;
  if (!picker) {
    apply();
    return;
  }
  const pick = gen.let('pick', -1);
  gen.if(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`, () => {
    if (picker.kind === 'member') {
      // One member: its branch; a second: none (-2), and the union runs whole.
      picker.members.forEach((member, i) => {
        gen.if(_`${data}${getProperty(member)} !== undefined`, () =>
          gen.assign(pick, i === 0 ? _`${i}` : _`${pick} === -1 ? ${i} : -2`),
        );
      });
    } else {
      const tag = gen.const('tag', _`${data}${getProperty(picker.property)}`);
      gen.if(false);
      picker.values.forEach((values, i) => {
        gen.elseIf(or(...values.map((v) => _`${tag} === ${v}`)));
        gen.assign(pick, i);
      });
      gen.endIf();
    }
  });
  const valid = gen.name('valid');
  gen.if(false);
  schema.forEach((_branch: unknown, i: number) => {
    gen.elseIf(_`${pick} === ${i}`);
    // The branch decides alone: its errors are the union's (as under ajv's `discriminator`), and what it evaluated
    // counts when it holds.
    const branch = cxt.subschema({ keyword, schemaProp: i }, valid);
    cxt.mergeValidEvaluated(branch, valid);
  });
  gen.else();
  apply();
  gen.endIf();
}
