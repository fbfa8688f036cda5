// What a developer hears of an answer that breaks its schema: one line per bad body or stream item, naming where it
// was sent, the type it was checked as, the pointer, the rule and the bad value, told to `onError` once per distinct
// fault (operation, type, pointer, rule) for the life of the app, not once per request.
import { parsePointer } from '../text/pointer.js';
import { isObjectLike } from '../unknown-values.js';
import type { ValidationIssue } from '../validation.js';

/** How many distinct faults an app remembers; past that, faults are no longer told apart (and each is reported). */
export const MAX_REMEMBERED_FAULTS = 1000;

// Keywords that, at the same depth, more often mean "this branch of a union was not the one" than "this is the fault":
// a tag that does not match, a property that branch lacks or does not allow. (The validator's errors do not say which
// branch each came from once a branch is a $ref, so the pick goes by the kind of rule.)
const BRANCH_KEYWORDS = new Set([
  'const',
  'enum',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
]);
// Keywords that only sum up the issues of their branches.
const SUMMARY_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

/**
 * The issue that best says what is wrong: the deepest in the value (the one nearest its cause), preferring a rule
 * about a value that is there over one that may only say a union's other branch did not fit; a union's own summary
 * only when alone; the first of equals.
 */
export function primaryIssue(issues: readonly ValidationIssue[]): ValidationIssue | undefined {
  let best: ValidationIssue | undefined;
  let bestScore = -1;
  for (const issue of issues) {
    const depth = issue.pointer === '' ? 0 : issue.pointer.split('/').length - 1;
    const score = SUMMARY_KEYWORDS.has(issue.keyword)
      ? 0
      : 1 + depth * 2 + (BRANCH_KEYWORDS.has(issue.keyword) ? 0 : 1);
    if (score > bestScore) {
      best = issue;
      bestScore = score;
    }
  }
  return best;
}

/** The value a pointer names inside `root`, or undefined when nothing is there. */
function valueAt(root: unknown, pointer: string): unknown {
  let at = root;
  for (const token of parsePointer(pointer)) {
    if (!isObjectLike(at) || !Object.hasOwn(at, token)) return undefined;
    at = at[token];
  }
  return at;
}

/** A value as JSON on one line, cut to about `max` characters. */
export function shortValue(value: unknown, max = 60): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The one line that says what is wrong with a body or item: `<where> → <Type>: <pointer>: <rule> (got <value>)`. */
export function faultMessage(where: string, type: string, issue: ValidationIssue, value: unknown): string {
  const got = issue.keyword === 'required' ? 'nothing' : shortValue(valueAt(value, issue.pointer));
  return `${where} → ${type}: ${issue.pointer || '/'}: ${issue.message} (got ${got})`;
}

/** The faults of one app's answers, each told to `onError` the first time it is seen. */
export class ResponseFaults {
  readonly #seen = new Set<string>();
  constructor(
    private readonly onError: (error: unknown, where: string) => void,
    private readonly limit = MAX_REMEMBERED_FAULTS,
  ) {}

  /**
   * Reports what is wrong with `value`, a body or stream item of `operation` checked as `type`, unless this fault was
   * reported before; answers the one-line message either way.
   */
  report(
    operation: string,
    what: string,
    type: string,
    issues: readonly ValidationIssue[],
    value: unknown,
  ): string {
    const issue = primaryIssue(issues) ?? { pointer: '', message: 'is invalid', keyword: 'false' };
    const message = faultMessage(`${operation} ${what}`, type, issue, value);
    const key = `${operation}\u0000${type}\u0000${issue.pointer}\u0000${issue.keyword}`;
    if (this.#seen.has(key)) return message;
    if (this.#seen.size < this.limit) this.#seen.add(key);
    this.onError(new Error(message), operation);
    return message;
  }
}
