// Proves a change: builds messages around it (from the sides' examples, or samples of the schemas), changes the
// value at the change's place as the change's rule says, and keeps a message only when one side's validator accepts
// it and the other's rejects it there. A rule's word on whom a change breaks stands only with such a message.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv, forAjv, sharedAjv } from '../ajv.js';
import { escapePointerToken } from '../diagnostics.js';
import { isRecord, resolveLocalPointer } from '../util/json.js';
import type { Breaks, DiffSide, Witness } from './diff-types.js';
import { linearRegExp, UndecidedPattern } from './linear-regexp.js';
import { type RefResolver, sample } from './sample.js';
import {
  type FoundChange,
  type Location,
  type Mutation,
  type MutationTools,
  REMOVE,
} from './schema/found-change.js';
import { refTypeName } from './schema/ref-name.js';

/** A side's validators and reference resolver. */
export interface SideTools {
  side: DiffSide;
  resolve: RefResolver;
  /** The validator of a schema whose references name the side's types (compiled once per schema). */
  validator(schema: unknown): ValidateFunction | undefined;
}

/** What a witness is checked against: a type, or a schema of a surface (a request body, a parameter). */
export interface Subject {
  name: string;
  schema: Record<'old' | 'new', unknown>;
}

/** Sets up a side's validators: one ajv instance holding every type of the side. */
export function sideTools(side: DiffSide): SideTools {
  // The sides' patterns are user input: matched in linear time, never by V8's backtracking engine.
  // A schema is checked against the meta-schema by the shared instance (which compiles the meta-schema once per
  // process), so this one need not compile it: a schema that fails is passed over, as ajv's throw would have had it.
  const meta = sharedAjv();
  const ajv: Ajv2020 = createAjv({
    strict: false,
    allErrors: true,
    validateSchema: false,
    code: { regExp: linearRegExp },
  });
  for (const t of side.types.values()) {
    const schema = schemaInput(t.value);
    try {
      // Anything but an object or a boolean ajv would refuse with a throw: it is passed over the same way.
      if (schema !== undefined && meta.validateSchema(schema)) ajv.addSchema(forAjv(schema), t.id);
    } catch {
      // A schema ajv refuses (a duplicate `$id`, say) leaves its type without a validator: no witness, no crash.
    }
  }
  const byName = new Map([...side.types].map(([name, t]) => [name, t.value]));
  const resolve: RefResolver = (ref) => {
    const name = refTypeName(ref);
    if (name === undefined) return undefined;
    const [typeName, fragment] = name.split('#');
    const schema = byName.get(typeName ?? '');
    return fragment ? resolveLocalPointer(schema, fragment) : schema;
  };
  const cache = new Map<string, ValidateFunction | undefined>();
  return {
    side,
    resolve,
    validator(schema) {
      const key = JSON.stringify(schema);
      if (!cache.has(key)) {
        let compiled: ValidateFunction | undefined;
        const given = schemaInput(schema);
        try {
          compiled =
            given === undefined || !meta.validateSchema(given) ? undefined : ajv.compile(forAjv(given));
        } catch {
          compiled = undefined;
        }
        cache.set(key, compiled);
      }
      return cache.get(key);
    },
  };
}

/** A value as ajv takes a schema (an object or a boolean); undefined for anything else, which ajv throws on. */
function schemaInput(value: unknown): object | boolean | undefined {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null) ? value : undefined;
}

// How many bases of each side, and how many values at the change's place, a witness search tries: enough for every
// probe value and a handful of examples, few enough that a large protocol diffs in a second.
const MAX_BASES = 8;
const MAX_VALUES = 16;

/** The witnesses of one change, whom it breaks once they are known, and whether every claim has one. */
export function prove(
  change: FoundChange,
  subject: Subject,
  tools: Record<'old' | 'new', SideTools>,
  bases: Record<'old' | 'new', unknown[]>,
): { witnesses: Witness[]; breaks: Breaks; proven: boolean; undecided?: string } {
  const witnesses: Witness[] = [];
  let undecided: string | undefined;
  const validateOld = tools.old.validator(subject.schema.old);
  const validateNew = tools.new.validator(subject.schema.new);
  const location = change.location;
  if (location && validateOld && validateNew)
    for (const mutation of change.mutations) {
      const breaks = mutation.accept === 'new' ? 'receivers' : 'senders';
      if (witnesses.some((w) => w.breaks === breaks)) continue;
      const found = search(
        change,
        mutation,
        subject,
        location,
        { old: validateOld, new: validateNew },
        tools,
        bases,
        (reason) => {
          undecided ??= reason;
        },
      );
      if (found) witnesses.push({ breaks, subject: subject.name, ...found });
    }
  const expected = directions(change.expect);
  const shown = new Set(witnesses.map((w) => w.breaks));
  const all = new Set([...expected, ...shown]);
  const proven = [...expected].every((d) => shown.has(d));
  return {
    witnesses,
    breaks: all.size === 2 ? 'both' : ([...all][0] ?? 'none'),
    proven,
    // Without a witness, a message a pattern could not judge may have been one: the search is undecided, not empty.
    ...(!proven && undecided ? { undecided } : {}),
  };
}

function directions(breaks: Breaks): Set<'receivers' | 'senders'> {
  if (breaks === 'both') return new Set(['receivers', 'senders']);
  return breaks === 'none' ? new Set() : new Set([breaks]);
}

function search(
  change: FoundChange,
  mutation: Mutation,
  subject: Subject,
  location: Location,
  validate: Record<'old' | 'new', ValidateFunction>,
  tools: Record<'old' | 'new', SideTools>,
  bases: Record<'old' | 'new', unknown[]>,
  onUndecided: (reason: string) => void,
): { message: unknown; rejection: string } | undefined {
  const accept = mutation.accept;
  const reject = accept === 'old' ? 'new' : 'old';
  // A validator that meets a pattern the linear engine cannot run decides nothing: the message is passed over.
  const judge = (side: 'old' | 'new', message: unknown): boolean | undefined => {
    try {
      return validate[side](message) === true;
    } catch (error) {
      if (!(error instanceof UndecidedPattern)) throw error;
      onUndecided(error.message);
      return undefined;
    }
  };
  const mutationTools: MutationTools = {
    resolve: { old: tools.old.resolve, new: tools.new.resolve },
    examples: {
      old: (t) => tools.old.side.examples.get(t) ?? [],
      new: (t) => tools.new.side.examples.get(t) ?? [],
    },
  };
  // Bases both sides accept come first: a witness built on one differs from it only at the change's place.
  const candidates = [
    ...bases[accept].slice(0, MAX_BASES),
    ...bases[reject].slice(0, MAX_BASES),
    sample(subject.schema[accept], tools[accept].resolve),
    sample(subject.schema[reject], tools[reject].resolve),
  ]
    .filter((base) => base !== undefined && judge(accept, base) === true)
    .map((base) => ({ base, bothAccept: judge(reject, base) === true }))
    .sort((a, b) => Number(b.bothAccept) - Number(a.bothAccept));
  const place = location.steps.map((s) => `/${escapePointerToken(s.token)}`).join('');
  // A real example of a type a reference names makes a better witness than a sample of it: it comes first.
  const values: Array<(node: unknown) => unknown> = [
    ...(mutation.alternatives?.(mutationTools) ?? [])
      .slice(0, MAX_VALUES)
      .map((v) => () => structuredClone(v)),
    (node) => mutation.apply(node, mutationTools),
  ];
  for (const { base, bothAccept } of candidates)
    for (const value of values)
      for (const fresh of [false, true]) {
        const message = mutate(base, location, value, accept, fresh, mutationTools);
        if (message === undefined) continue;
        if (judge(accept, message) !== true || judge(reject, message) !== false) continue;
        const errors = validate[reject].errors ?? [];
        const keywords = change.keywords;
        const at = errors.find(
          (e) => concerns(e, place, mutation.key) && (!keywords || keywords.includes(e.keyword)),
        );
        // A base both sides accept differs from the witness only at the change's place; any other base must be
        // rejected there.
        if (!at && (!bothAccept || mutation.key !== undefined || keywords)) continue;
        const error = at ?? errors[0];
        return {
          message,
          rejection: error
            ? `${error.instancePath || '(root)'}: ${error.message ?? error.keyword}${detail(error)}`
            : 'rejected',
        };
      }
  return undefined;
}

/** True when an error is about the change's place: at it, inside it, or a missing or unknown key of it. */
function concerns(error: ErrorObject, place: string, key: string | undefined): boolean {
  if (key !== undefined) {
    // A key added or removed: the rejection names it, or is about its value.
    const inside = `${place}/${escapePointerToken(key)}`;
    if (error.instancePath === inside || error.instancePath.startsWith(`${inside}/`)) return true;
    const p: Record<string, unknown> = error.params;
    return (
      error.instancePath === place &&
      [p.missingProperty, p.additionalProperty, p.unevaluatedProperty].includes(key)
    );
  }
  return error.instancePath === place || error.instancePath.startsWith(`${place}/`);
}

function detail(error: ErrorObject): string {
  const p: Record<string, unknown> = error.params;
  if (Array.isArray(p.allowedValues)) return ` (${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
  if (typeof p.missingProperty === 'string') return ` (${p.missingProperty})`;
  if (typeof p.additionalProperty === 'string') return ` (${p.additionalProperty})`;
  if (typeof p.unevaluatedProperty === 'string') return ` (${p.unevaluatedProperty})`;
  return '';
}

/** Whether a value holds members a step's token reads: an object (by key) or an array (by index, as a string). */
function isContainer(value: unknown): value is Record<string, unknown> {
  return isRecord(value) || Array.isArray(value);
}

/** A copy of `base` with the value at the change's place replaced as the mutation says; undefined when impossible. */
function mutate(
  base: unknown,
  location: Location,
  value: (node: unknown) => unknown,
  accept: 'old' | 'new',
  fresh: boolean,
  tools: MutationTools,
): unknown {
  const root = structuredClone(base);
  const here = (current: unknown) =>
    value(fresh || current === undefined ? sample(location[accept], tools.resolve[accept]) : current);
  if (location.steps.length === 0) {
    const result = here(root);
    return result === REMOVE ? undefined : result;
  }
  let parent: unknown = root;
  for (const [i, step] of location.steps.entries()) {
    if (!isContainer(parent)) return undefined;
    const container = parent;
    if (i === location.steps.length - 1) {
      const value = here(container[step.token]);
      if (value === undefined) return undefined;
      if (value === REMOVE) delete container[step.token];
      else container[step.token] = value;
      return root;
    }
    let child = container[step.token];
    if (!isContainer(child)) {
      child = sample(step[accept], tools.resolve[accept]);
      if (!isContainer(child)) return undefined;
      container[step.token] = child;
    }
    parent = child;
  }
  return root;
}
