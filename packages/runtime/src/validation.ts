// Validation issues from ajv errors: each located by a JSON pointer at the value itself (a missing or extra property
// at its own pointer), with a message that says what was expected.
import type { ErrorObject } from 'ajv';
import { escapePointerToken } from './text/pointer.js';

/**
 * A generated (ajv standalone) validator: a type guard that leaves its errors on itself. A message validator tries a
 * boolean check first (`fast`: no error objects) and runs ajv's error-reporting code (`full`) only when that says no;
 * both give the same verdict.
 */
export type Validator<T = unknown> = ((data: unknown) => data is T) & {
  errors?: ErrorObject[] | null;
  fast?: (data: unknown) => boolean;
  full?: (data: unknown) => boolean;
};

/** One broken rule, located by a JSON pointer into the value that was checked. */
export interface ValidationIssue {
  /** JSON pointer to the offending value ('' is the value itself). */
  pointer: string;
  /** What was expected there. */
  message: string;
  /** The JSON Schema keyword that failed. */
  keyword: string;
}

/**
 * Turns ajv errors into issues that point at the offending value and say what was expected there. A missing
 * property is reported at the property's own pointer; branches of a failed `oneOf`/`anyOf` are kept (each says what
 * it wanted), duplicates dropped.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (!errors) return out;
  const list = collapseTypeUnions(errors);
  // Duplicates are looked for among the issues kept so far: by comparing them while they are few (the usual case:
  // no key strings to build and hash), by a set of keys once there can be many.
  const seen = list.length > SCAN_LIMIT ? new Set<string>() : undefined;
  // Indexed loops here and in listed(), not for…of: this runs for every invalid message.
  for (let at = 0; at < list.length; at++) {
    const e = list[at];
    if (e === undefined) continue;
    const keyword = e.keyword;
    let pointer = e.instancePath;
    let message: string;
    const params: Record<string, unknown> = e.params;
    switch (keyword) {
      case 'type': {
        // One type (a string) is what ajv nearly always names; a list comes from `type: [...]`.
        const types = params.type;
        message =
          typeof types === 'string'
            ? typeMessage(types)
            : Array.isArray(types)
              ? once(TYPE_MESSAGES, types, () => `must be ${types.join(' or ')}`)
              : typeMessage(String(types));
        break;
      }
      case 'required':
        pointer = `${pointer}/${escapePointerToken(String(params.missingProperty))}`;
        message = 'is required but missing';
        break;
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const extra = params.additionalProperty ?? params.unevaluatedProperty;
        pointer = `${pointer}/${escapePointerToken(String(extra))}`;
        message = 'is not allowed here';
        break;
      }
      case 'enum': {
        // ajv lists the allowed values in an array.
        const allowed = params.allowedValues;
        message = Array.isArray(allowed)
          ? once(
              ENUM_MESSAGES,
              allowed,
              () => `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
            )
          : `must be one of ${String(allowed)}`;
        break;
      }
      case 'const':
        message = `must be ${JSON.stringify(params.allowedValue)}`;
        break;
      case 'discriminator':
        // The union could not pick a branch: the fault is in the tag property, not the object.
        pointer = `${pointer}/${escapePointerToken(String(params.tag))}`;
        message =
          params.error === 'mapping'
            ? `${JSON.stringify(params.tagValue)} names none of the union's variants`
            : "must be a string naming one of the union's variants";
        break;
      default:
        message = e.message ?? 'is invalid';
    }
    if (seen) {
      const key = `${pointer}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
    } else if (out.length > 0 && listed(out, pointer, message)) continue;
    out.push({ pointer, message, keyword });
  }
  return out;
}

// Up to this many errors, duplicates are found by comparing issues (a few string comparisons each).
const SCAN_LIMIT = 16;

// The list in an `enum` or `type` error is the schema's own array, the same object each time the keyword fails:
// its message is made once per list.
const ENUM_MESSAGES = new WeakMap<readonly unknown[], string>();
const TYPE_MESSAGES = new WeakMap<readonly unknown[], string>();

// A one-type error's message by the type's name: the same string each time (the duplicate check then compares it by
// identity, not by its characters). The names come from schemas, a few dozen at most; past the cap they are not kept.
const ONE_TYPE_MESSAGES = new Map<string, string>();
const ONE_TYPE_LIMIT = 64;

/** "must be <type>", made once per type name. */
function typeMessage(type: string): string {
  // JSON Schema's seven type names (draft 2020-12 validation §6.1.1) without a map lookup: one of them is what nearly
  // every type error names.
  switch (type) {
    case 'string':
      return 'must be string';
    case 'object':
      return 'must be object';
    case 'integer':
      return 'must be integer';
    case 'number':
      return 'must be number';
    case 'boolean':
      return 'must be boolean';
    case 'array':
      return 'must be array';
    case 'null':
      return 'must be null';
  }
  let message = ONE_TYPE_MESSAGES.get(type);
  if (message === undefined) {
    message = `must be ${type}`;
    if (ONE_TYPE_MESSAGES.size < ONE_TYPE_LIMIT) ONE_TYPE_MESSAGES.set(type, message);
  }
  return message;
}

/** The message kept for `list` in `messages`, made by `make` the first time. */
function once(
  messages: WeakMap<readonly unknown[], string>,
  list: readonly unknown[],
  make: () => string,
): string {
  let message = messages.get(list);
  if (message === undefined) {
    message = make();
    messages.set(list, message);
  }
  return message;
}

/** Whether `issues` already has one at `pointer` saying `message`. */
function listed(issues: readonly ValidationIssue[], pointer: string, message: string): boolean {
  for (let at = 0; at < issues.length; at++) {
    const i = issues[at];
    if (i !== undefined && i.pointer === pointer && i.message === message) return true;
  }
  return false;
}

/** Runs a validator and returns its issues (empty when the value is valid). */
export function check(validate: Validator, value: unknown): readonly ValidationIssue[] {
  return validate(value) ? NO_ISSUES : describeErrors(validate.errors);
}

// What check() returns for a valid value: one shared empty list, not a new one per call.
const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

/**
 * A nullable field is written `anyOf: [<schema>, {type: "null"}]`; when a value fails it, ajv reports the errors of
 * both branches and then the anyOf. The null branch adds nothing a reader needs: its error and the anyOf's are
 * dropped, and when the other branch failed only on its type, the two type errors become one ("must be X or null").
 */
function collapseTypeUnions(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  // Most failures have no anyOf among their errors: nothing to collapse, nothing to allocate (a plain loop: this runs
  // for every invalid message).
  let anyOf = false;
  for (let i = 0; i < errors.length && !anyOf; i++) anyOf = errors[i]?.keyword === 'anyOf';
  if (!anyOf) return errors;
  const dropped = new Set<ErrorObject>();
  const collapsed = new Map<ErrorObject, ErrorObject>();
  errors.forEach((e, at) => {
    if (e.keyword !== 'anyOf') return;
    const isNull = (b: ErrorObject) =>
      b.keyword === 'type' &&
      b.instancePath === e.instancePath &&
      b.params.type === 'null' &&
      b.schemaPath.startsWith(`${e.schemaPath}/`);
    const nulls = errors.filter(isNull);
    if (nulls.length === 0) return;
    // ajv reports a branch's errors before the anyOf's own; a branch behind a $ref has its own schema paths, so
    // the other branch is found by where its errors point.
    const under = (b: ErrorObject) =>
      b.instancePath === e.instancePath || b.instancePath.startsWith(`${e.instancePath}/`);
    const others = errors.slice(0, at).filter((b) => under(b) && !isNull(b) && !dropped.has(b));
    if (others.length === 0) return;
    for (const b of nulls) dropped.add(b);
    if (others.every((b) => b.keyword === 'type' && b.instancePath === e.instancePath)) {
      for (const b of others) dropped.add(b);
      const types = [...new Set([...others, ...nulls].map((b) => String(b.params.type)))];
      collapsed.set(e, { ...e, keyword: 'type', params: { type: types.join(',') } });
    } else {
      dropped.add(e);
    }
  });
  // A collapsed error takes the place of its anyOf, so ajv's order holds.
  return errors.filter((e) => !dropped.has(e)).map((e) => collapsed.get(e) ?? e);
}
