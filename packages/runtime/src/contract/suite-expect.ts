// What a suite's checks expect of an answer, one call each, so a check reads as its requirement does
// (`expectStatus(x, 404, 'TaskNotFound')`) and every failure says the same things in the same words: the request, what
// came, what was expected, and the start of the body.
import type { ParsedFrame } from '../streams/read-frames.js';
import { describeErrors, type Validator } from '../validation.js';
import {
  CheckFailure,
  CheckSkipped,
  type Exchange,
  excerpt,
  type StreamedExchange,
  type SuiteContext,
} from './suite.js';

/** The statuses a check accepts: one, any of several, or any client error (`'4xx'`, a refusal). */
export type ExpectedStatus = number | readonly number[] | '4xx';

/** An answer whose body the kit validated against the type the call's `expect` named for its status. */
export type CheckedExchange = Exchange & { readonly problems: readonly string[] };

/** The most problems a failure message lists; the wire-schema check lists every one. */
const SHOWN = 5;

/** Problems on one line, at most SHOWN of them, with how many more there are. */
function listed(problems: readonly string[]): string {
  const more = problems.length > SHOWN ? ` (and ${problems.length - SHOWN} more)` : '';
  return `${problems.slice(0, SHOWN).join('; ')}${more}`;
}

/**
 * Fails unless the answer has the status the requirement asks for. The message names the request, the status that
 * came and the one expected (with `why`, what the expected status means: `'TaskNotFound'`), then the body's start:
 * `GET /tasks/x: answered 500, expected 404 (TaskNotFound): Internal error`.
 */
export function expectStatus(
  x: Pick<Exchange, 'label' | 'status' | 'text'>,
  want: ExpectedStatus,
  why?: string,
): void {
  const ok =
    want === '4xx'
      ? x.status >= 400 && x.status <= 499
      : typeof want === 'number'
        ? x.status === want
        : want.includes(x.status);
  if (ok) return;
  const wanted =
    want === '4xx' ? 'a 4xx refusal' : typeof want === 'number' ? String(want) : want.join(' or ');
  const body = excerpt(x.text);
  throw new CheckFailure(
    `${x.label}: answered ${x.status}, expected ${wanted}${why ? ` (${why})` : ''}${body ? `: ${body}` : ''}`,
  );
}

/**
 * Fails unless the answer has `status` and a body of the type the call's `expect` named for that status (the kit
 * parsed it, JSON or YAML, and validated it: its problems are the failure, at most five listed); returns the body.
 * The type is named once, in the call, because that is where the kit validates it and counts it for the wire check.
 */
export function expectBody<T = unknown>(x: CheckedExchange, status: ExpectedStatus = 200, why?: string): T {
  expectStatus(x, status, why);
  if (x.problems.length > 0) throw new CheckFailure(listed(x.problems));
  if (x.body === undefined)
    throw new CheckFailure(`${x.label}: answered ${x.status} with a body that is neither JSON nor YAML`);
  // sound: T is the type the call's `expect` named for this status, and the kit validated the body against it
  // (a body that broke it failed above).
  return x.body as T;
}

/** The error member of a JSON-RPC response (JSON-RPC 2.0 §5.1), as far as a check reads it. */
export interface AnsweredRpcError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: unknown;
}

/** The error object of a JSON-RPC answer's body; undefined when the body holds none. */
export function rpcErrorIn(body: unknown): AnsweredRpcError | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error;
  return typeof error === 'object' && error !== null ? error : undefined;
}

/** What `expectRpcResult` checks the result against: the type's name (for messages) and its validator. */
export interface RpcResultType {
  readonly type: string;
  readonly validate: Validator | undefined;
}

/**
 * Fails unless the answer is a JSON-RPC success (JSON-RPC 2.0 §5: status 200, a valid envelope, `result` and no
 * `error`) and, given `as`, its result is of that type; returns the result. The envelope's schema leaves `result`
 * open, so the method's result type is checked here: `POST / (tasks/get): /result/id: must be string (Task)`.
 */
export function expectRpcResult<T = unknown>(x: CheckedExchange, as?: RpcResultType): T {
  const body = expectBody<{ result?: unknown }>(x, 200, 'a JSON-RPC response');
  const error = rpcErrorIn(body);
  if (error) {
    const wanted = as ? `, expected a ${as.type}` : '';
    throw new CheckFailure(
      `${x.label}: answered error ${String(error.code)} ${String(error.message ?? '')}${wanted}`.trimEnd(),
    );
  }
  if (as?.validate && !as.validate(body.result)) {
    const problems = describeErrors(as.validate.errors).map(
      (i) => `${x.label}: /result${i.pointer}: ${i.message} (${as.type})`,
    );
    throw new CheckFailure(
      listed(problems.length > 0 ? problems : [`${x.label}: the result is not a ${as.type}`]),
    );
  }
  // sound: with `as`, the result passed T's validator above; without it, T is what the caller knows of the method
  // (unknown by default).
  return body.result as T;
}

/**
 * Fails unless the answer is JSON-RPC error `code` (whatever its HTTP status: bindings answer errors with 200 or a
 * 4xx); `why` names what the code means. Returns the error object, for checks that read its `data`.
 */
export function expectRpcError(
  x: Pick<Exchange, 'label' | 'status' | 'text' | 'body'>,
  code: number,
  why?: string,
): AnsweredRpcError {
  const error = rpcErrorIn(x.body);
  if (error?.code === code) return error;
  const body = excerpt(x.text);
  throw new CheckFailure(
    `${x.label}: answered ${x.status}${body ? ` ${body}` : ''}, expected error ${code}${why ? ` (${why})` : ''}`,
  );
}

/**
 * Fails unless the answer's content-type is `want`: a media type it starts with (`text/event-stream`, parameters
 * allowed), or a pattern it matches. `what` says what was expected, for a pattern.
 */
export function expectContentType(
  x: Pick<Exchange, 'label' | 'headers'>,
  want: string | RegExp,
  what: string = String(want),
): void {
  const type = x.headers.get('content-type') ?? '';
  const ok = typeof want === 'string' ? type.toLowerCase().startsWith(want) : want.test(type);
  if (!ok) throw new CheckFailure(`${x.label}: content-type is "${type}", expected ${what}`);
}

/**
 * Fails unless the streamed answer is 200 and held at least one `item` (`'event'`, `'response'`: the word the
 * message uses); returns the items that parsed. Their schema and rule problems are `expectStreamRules`'s.
 */
export function expectStream<T = unknown>(x: StreamedExchange, item = 'event'): T[] {
  expectStatus(x, 200);
  if (x.items.length === 0) throw new CheckFailure(`${x.label}: the stream held no ${item}s`);
  return streamValues<T>(x);
}

/** `expectStream` for Server-Sent Events: 200, content-type text/event-stream, at least one event. */
export function expectEventStream<T = unknown>(x: StreamedExchange): T[] {
  expectStatus(x, 200);
  expectContentType(x, 'text/event-stream');
  return expectStream<T>(x);
}

/**
 * Fails when the stream broke the protocol's stream rules or an item's schema (the issues the kit's stream check
 * found, at most five listed), each named by its position: `POST /process: event 3 (line 9): /status: … [terminal]`.
 */
export function expectStreamRules(x: Pick<StreamedExchange, 'label' | 'issues'>, item = 'event'): void {
  if (x.issues.length === 0) return;
  throw new CheckFailure(
    listed(
      x.issues.map(
        (i) =>
          `${x.label}: ${item} ${i.index}${i.line === undefined ? '' : ` (line ${i.line})`}: ${i.pointer || `(${item})`}: ${i.message} [${i.rule}]`,
      ),
    ),
  );
}

/** The values of a stream's items that parsed as JSON, in order (those that did not are the stream's issues). */
export function streamValues<T = unknown>(x: { items: readonly ParsedFrame[] }): T[] {
  // sound: T is the item type the suite named for the stream, the type the kit checked each item against; an item
  // that broke it is one of the stream's issues, which the checks fail on.
  return x.items.flatMap((i) => (i.ok ? [i.value as T] : []));
}

/**
 * What an earlier check learned, for a check that builds on it: fails as `requirePassed` does unless check `id`
 * passed, then skips with `reason` when that check learned nothing to build on (`undefined`, `null` or `false`:
 * the agent answered with a message, so there is no task to read).
 */
export function followUp<T>(
  context: Pick<SuiteContext, 'requirePassed'>,
  id: string,
  learned: T | undefined | null | false,
  reason: string,
): T {
  context.requirePassed(id);
  if (learned === undefined || learned === null || learned === false) throw new CheckSkipped(reason);
  return learned;
}
