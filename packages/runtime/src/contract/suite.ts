// The contract between a protocol package and the conformance kit: a protocol's suite is written against these types
// (in the protocol's own package), and the kit (`@agentproto/conformance`) runs it. They live here, below both, so a
// protocol package needs no dependency on the kit to declare its checks, and the kit needs none on any protocol.
import type { ParsedFrame, StreamFraming } from '../streams/read-frames.js';
import type { StreamIssue } from '../streams/stream-check.js';

/** How strongly the protocol asks for what a check tests (RFC 2119). */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** What a check is: its id, its level, what it tests, and the sentence or upstream behaviour it enforces. */
export interface CheckDefinition {
  id: string;
  level: Level;
  title: string;
  /** Where the rule comes from: a sentence of the spec, a DECISIONS entry, or an upstream behaviour. */
  ref: string;
  /** The ids of the requirements (the version's `requirements.yaml`) this check tests; at least one. */
  covers: readonly string[];
}

/** Where a requirement comes from: the seed text, the upstream spec or code, or one of our DECISIONS entries. */
export type RequirementSource = 'seed' | 'upstream' | 'decision';

/**
 * One normative statement of a protocol version, restated in our words (`schemas/<id>/<version>/requirements.yaml`).
 * Every requirement is covered by a check of the suite, or excluded with the reason no check can test it.
 */
export interface Requirement {
  id: string;
  level: Level;
  statement: string;
  source: RequirementSource;
  /** The section, operation or DECISIONS entry the statement comes from. */
  ref: string;
  /** Why no check tests it (only for a requirement no check covers). */
  excluded?: string;
}

/** One request and its answer: what the check functions look at. */
export interface Exchange {
  /** `METHOD /path`, as failure messages name the request. */
  label: string;
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (or YAML, when the answer says so); undefined when it is neither. */
  body: unknown;
}

/** Options of one call. */
export interface CallOptions {
  /** A JSON body. */
  json?: unknown;
  /** A raw body (with its own content-type in `headers`). */
  body?: BodyInit;
  headers?: Record<string, string>;
  /** The schema type the answer's body must have, by status (`200: 'Task'`); `*` for any other status. */
  expect?: Readonly<Record<string, string>>;
  /**
   * A JSON-RPC request's id, where the transport may answer with an SSE stream of messages that ends in the response
   * (MCP's Streamable HTTP): such an answer is read up to the response with this id, which becomes the body; events
   * with no data (a stream's priming event) are skipped.
   */
  answerId?: string | number;
}

/** A streamed answer read to its end (or to the item limit), with every item checked. */
export interface StreamedExchange extends Exchange {
  items: ParsedFrame[];
  /** Schema and rule problems found in the items (and at the end of the stream), by the protocol's check. */
  issues: StreamIssue[];
}

/** Options of one streamed call: which type each item has (else the protocol's stream check), and when to stop. */
export interface StreamOptions extends CallOptions {
  itemType?: string;
  until?: (item: unknown) => boolean;
}

/**
 * The kit's HTTP layer as a suite sees it. Every answer body and stream item is validated against the protocol's
 * schemas by the kit; `call` also returns the problems, so the check that made the request can fail with them.
 */
export interface SuiteSession {
  /** Sends a request and reads the whole answer; validates the body against `expect` for its status. */
  call(method: string, path: string, options?: CallOptions): Promise<Exchange & { problems: string[] }>;
  /** Sends a request whose answer is a stream and reads it item by item, each item checked. */
  stream(
    method: string,
    path: string,
    framing: StreamFraming,
    options?: StreamOptions,
  ): Promise<StreamedExchange>;
}

/** What a suite's scenario gets: the session and a way to run its checks. */
export interface SuiteContext {
  session: SuiteSession;
  /**
   * Whether checks may call what the agent declares may change something (an MCP tool not annotated `readOnlyHint`):
   * false unless the run was asked for it (`--side-effects`). A check that would need such a call is skipped, saying so.
   */
  sideEffects: boolean;
  /**
   * Runs one check. The function passes by returning (optionally a message of what it saw), fails by throwing
   * CheckFailure, and is skipped by throwing CheckSkipped. Any other error is a failure too: a check that cannot be
   * carried out fails.
   */
  check(id: string, fn: () => Promise<string | undefined> | string | undefined): Promise<boolean>;
  /** Throws CheckFailure naming `id` unless that check ran and passed: for checks that build on another. */
  requirePassed(id: string): void;
  /**
   * Tells the schema-driven checks (`--fuzz`) a value of a path parameter the scenario learned (an agent's name, a
   * task's id), so their requests reach real resources and not only 404s.
   */
  offer(parameter: string, value: string): void;
  /**
   * Tells the schema-driven checks where a surface is served, relative to the target's root, when the scenario learned
   * it (A2A: the card's interfaces): the HTTP one (OpenAPI) or the JSON-RPC one (OpenRPC). `null` when the agent
   * serves none: its requests are not sent.
   */
  surfaceAt(path: string | null, kind?: 'http' | 'json-rpc'): void;
}

/**
 * The request that tells whether an agent speaks the protocol at all (A2A: its card; MCP: `initialize`), and the check
 * that sends it: the one every other check builds on, which the scenario runs first. The kit judges that request's
 * answer when the check fails. A 4xx other than 401, 403, 407, 408 and 429 (unless its body is the type the call
 * expects for that status, a JSON-RPC error say), a 2xx that is neither JSON nor YAML or breaks the type the call
 * expects, or a 2xx stream with no item that parses, says the agent does not speak the protocol: the check fails with
 * one diagnosis, and every other check is blocked. Any other failure (a 5xx, a refusal for want of credentials, a
 * check of the answer's content) is reported as it is.
 */
export interface SuiteProbe {
  /** The check that sends the request. */
  check: string;
  /** The request, as the kit labels it: method and path (`GET /.well-known/agent-card.json`). */
  request: string;
}

/**
 * A protocol version's conformance suite: its checks, and the scenario that drives an agent through them. Every
 * suite declares a `<prefix>.wire.schemas` check, which the kit runs last over every message the run validated.
 */
export interface Suite {
  protocol: string;
  checks: readonly CheckDefinition[];
  run(context: SuiteContext): Promise<void>;
  /** The request that tells whether the agent speaks the protocol at all, and the check that sends it. */
  probe?: SuiteProbe;
  /**
   * Headers every request of the schema-driven checks carries (A2A: the protocol version the kit speaks). Read when
   * those checks start, after the scenario: a suite may add what the scenario learned (MCP: the session).
   */
  requestHeaders?: Readonly<Record<string, string>>;
  /**
   * Headers a JSON-RPC call of the schema-driven checks carries that depend on the call itself (MCP 2026-07-28
   * repeats the method and the tool's name in headers).
   */
  rpcHeaders?: (method: string, params: unknown) => Readonly<Record<string, string>>;
  /**
   * HTTP statuses besides 200 with which the binding may answer a JSON-RPC error it finds before any method runs
   * (MCP: 400 for a header that disagrees with the body, 404 for a method the revision does not serve).
   */
  rpcErrorStatuses?: readonly number[];
  /**
   * Whether a stream item refuses the request, for a protocol that may refuse inside a 200 stream (AgentScope 1.x
   * sends an error frame): the schema-driven checks then count such a stream as a refusal, not as acceptance.
   */
  refusesInStream?: (item: unknown) => boolean;
}

/**
 * The start of an answer's body on one line (whitespace runs as one space, at most `max` characters, `…` when cut),
 * for a failure message: an HTML error page or a stack trace does not break the report's lines.
 */
export function excerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** A check that fails: the message says what was sent, where the answer went wrong, and what was expected. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

/** A check that does not apply: the agent does not claim the capability it needs. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped';
}
