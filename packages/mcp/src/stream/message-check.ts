// The check of a sequence of MCP messages: an answer's event stream (what a POST's SSE answer carries) or a capture of
// a stdio conversation (one message per line). Each message is held to the revision's types (a request to one of the
// requests either side may send, a notification likewise, a result to the results), and the sequence to the rules
// that hold wherever it was captured:
// - progress (basic/utilities/progress): the value MUST increase with each notification for a token, and a token
//   MUST belong to an active request, so none may come once the request that carried it has been answered;
// - JSON-RPC 2.0 §5: a request gets one response, so an id answered already is not answered again while no new
//   request has reused it.
// A stream may be captured without the request it answers (an SSE answer holds the POST's response, not its request),
// so a response whose request is not in the capture is not an issue; nor is a request left open at the end (a
// cancelled one need not be answered).
import {
  describeErrors,
  type ItemPosition,
  primaryIssue,
  type StreamCheck,
  type StreamIssue,
  streamIssue,
  type Validator,
} from '@agentproto/runtime/contract';
import { GENERATED } from '../generated/modules.js';
import { isObjectLike } from '../is-object-like.js';
import type { McpVersion } from '../version-traits.js';

/** The rules this check applies beyond the schemas, as its issues name them. */
export type McpStreamRule = 'progress-increases' | 'progress-token-active' | 'one-response';

/** The most ids and tokens the check remembers; past that the oldest are forgotten (their rules no longer checked). */
export const MESSAGE_CHECK_MEMORY = 10_000;

/** How many requests one id may have open at once (each side's own, and a few more) before the oldest is forgotten. */
const MAX_OPEN_PER_ID = 8;

/** The unions a message is typed by, by its kind: the types either side may send. */
const KINDS = {
  request: ['ClientRequest', 'ServerRequest'],
  notification: ['ClientNotification', 'ServerNotification'],
  result: ['ServerResult', 'ClientResult'],
} as const;

/** The JSON-RPC envelope a message has the shape of (its members), so an issue is told about that envelope. */
function envelopeOf(item: unknown): string {
  if (!isObjectLike(item) || Array.isArray(item)) return 'JSONRPCMessage';
  if ('method' in item) return 'id' in item ? 'JSONRPCRequest' : 'JSONRPCNotification';
  if ('result' in item) return 'JSONRPCResultResponse';
  return 'error' in item ? 'JSONRPCErrorResponse' : 'JSONRPCMessage';
}

/** Whether a validator's last errors fault a message's `method`. */
const faultsMethod = (validate: Validator): boolean =>
  (validate.errors ?? []).some((e) => e.instancePath === '/method');

/** Checks one sequence of messages of `version`. */
export class McpMessageCheck implements StreamCheck {
  private readonly validators: Readonly<Record<string, Validator>>;
  /**
   * Requests seen and not yet answered, by id (as JSON, so 1 and "1" differ): the progress token each carried, latest
   * last. Each side of a conversation numbers its own requests, so one id may be open twice at once; a response
   * answers the latest.
   */
  private readonly open = new Map<string, unknown[]>();
  /** Ids answered with none of their requests left open, since the last request that used them. */
  private readonly answered = new Set<string>();
  /** The last progress each token reported; a token whose request was answered is `Infinity` (no more may come). */
  private readonly progress = new Map<unknown, number>();
  /** The type each method names, once looked up (only methods the revision has: a bounded set). */
  private readonly keyed = new Map<string, string>();

  constructor(version: McpVersion) {
    this.validators = GENERATED[version].validators;
  }

  push(item: unknown, at: ItemPosition): StreamIssue[] {
    const issues: StreamIssue[] = [];
    const rule = (name: McpStreamRule, pointer: string, message: string) =>
      issues.push(streamIssue(at, name, pointer, message));
    const envelope = this.typed(item, [envelopeOf(item)], '', at);
    if (envelope || !isObjectLike(item) || Array.isArray(item)) return envelope ? [envelope] : issues;
    const id = 'id' in item ? JSON.stringify(item.id) : undefined;
    if (typeof item.method === 'string') {
      const wrong = this.typed(item, id === undefined ? KINDS.notification : KINDS.request, '', at);
      if (wrong) issues.push(wrong);
      if (id !== undefined) {
        const token =
          isObjectLike(item.params) && isObjectLike(item.params._meta)
            ? item.params._meta.progressToken
            : undefined;
        this.remember(this.open, id, [...(this.open.get(id) ?? []), token].slice(-MAX_OPEN_PER_ID));
        this.answered.delete(id);
        if (token !== undefined) this.progress.delete(token);
      }
      if (item.method === 'notifications/progress' && isObjectLike(item.params))
        this.onProgress(item.params, rule);
      return issues;
    }
    if (id === undefined || id === 'null') return issues;
    if ('result' in item) {
      const wrong = this.typed(item.result, KINDS.result, '/result', at);
      if (wrong) issues.push(wrong);
    }
    const waiting = this.open.get(id);
    if (!waiting) {
      if (this.answered.has(id)) rule('one-response', '/id', `answers request ${id} a second time`);
      this.answered.add(id);
    } else {
      const token = waiting.pop();
      if (waiting.length === 0) {
        this.open.delete(id);
        this.answered.add(id);
      }
      if (token !== undefined) this.remember(this.progress, token, Number.POSITIVE_INFINITY);
    }
    if (this.answered.size > MESSAGE_CHECK_MEMORY)
      this.answered.delete(this.answered.values().next().value ?? '');
    return issues;
  }

  end(): StreamIssue[] {
    return [];
  }

  /** How many ids and tokens the check holds right now: bounded, whatever the length of the sequence. */
  get remembered(): number {
    return this.open.size + this.answered.size + this.progress.size;
  }

  private onProgress(
    params: Record<string, unknown>,
    rule: (name: McpStreamRule, pointer: string, message: string) => void,
  ): void {
    const token = params.progressToken;
    const value = params.progress;
    if (typeof value !== 'number') return;
    const last = this.progress.get(token);
    if (last === Number.POSITIVE_INFINITY)
      rule(
        'progress-token-active',
        '/params/progressToken',
        `${JSON.stringify(token)} belongs to a request answered already`,
      );
    else if (last !== undefined && value <= last)
      rule(
        'progress-increases',
        '/params/progress',
        `must be greater than ${last}, the token's last progress (got ${value})`,
      );
    if (last !== Number.POSITIVE_INFINITY) this.remember(this.progress, token, value);
  }

  /**
   * The issue that says why `value` is none of `types` (a union of the revision's types, those it has), or undefined
   * when it is one of them. A message that names a method is held to the one type keyed by that method, so the issue
   * is about that type; one whose method no type has is told so.
   */
  private typed(
    value: unknown,
    types: readonly string[],
    base: string,
    at: ItemPosition,
  ): StreamIssue | undefined {
    const present = types.filter((t) => this.validators[t] !== undefined);
    if (present.some((t) => this.validators[t]?.(value))) return undefined;
    const method = isObjectLike(value) && typeof value.method === 'string' ? value.method : undefined;
    if (method !== undefined && base === '') {
      const keyed = this.keyedBy(method, present);
      if (keyed === undefined)
        return streamIssue(
          at,
          'schema',
          '/method',
          `names no method of ${present.join(' or ')}: ${JSON.stringify(method)}`,
          present.join(' or '),
        );
      const validate = this.validators[keyed];
      const issue = validate && !validate(value) ? primaryIssue(describeErrors(validate.errors)) : undefined;
      if (issue) return streamIssue(at, 'schema', issue.pointer, issue.message, keyed);
    }
    const errors = present.flatMap((t) => this.validators[t]?.errors ?? []);
    const issue = primaryIssue(describeErrors(errors));
    return issue && streamIssue(at, 'schema', `${base}${issue.pointer}`, issue.message, present.join(' or '));
  }

  /**
   * The type, of those the unions `of` hold, whose `method` is `method`: among the revision's types that key on a
   * method (they refuse a method no message has, at `/method`), the first that does not fault this one. Looked up
   * only for a message that broke its union, and remembered for the methods the revision has.
   */
  private keyedBy(method: string, of: readonly string[]): string | undefined {
    const known = this.keyed.get(method);
    if (known) return known;
    const message = (name: string) => ({ jsonrpc: '2.0', id: 0, method: name, params: {} });
    for (const [name, validate] of Object.entries(this.validators)) {
      if (of.includes(name) || validate(message('\u0000')) || !faultsMethod(validate)) continue;
      if (!validate(message(method)) && faultsMethod(validate)) continue;
      this.keyed.set(method, name);
      return name;
    }
    return undefined;
  }

  /** Sets `key` in a bounded map, forgetting the oldest entry past MESSAGE_CHECK_MEMORY. */
  private remember<K, V>(map: Map<K, V>, key: K, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > MESSAGE_CHECK_MEMORY) {
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
  }
}
