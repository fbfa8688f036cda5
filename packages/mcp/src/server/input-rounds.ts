// Multi-round-trip requests, for revisions where a server asks for input by answering `input_required`: the client
// retries the same request with `inputResponses`, and `requestState` carries what earlier rounds answered. The state
// is the server's own, signed (HMAC-SHA256) and tied to the request it was issued for, so a client can neither forge
// nor move it; the work then runs again from the start with every answer known so far.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { JsonRpcError, RPC_ERROR_CODES } from '@agentproto/runtime';
import { isObjectLike } from '../is-object-like.js';
import type { InputRequest } from './definition.js';

/** How `requestState` is signed, and how long it stays good. */
export interface InputStateOptions {
  /** The signing key (default: 32 random bytes per server, so state does not outlive the process). */
  secret: Uint8Array;
  /** How long a state is accepted after it was issued (default 10 minutes). */
  ttlMs: number;
}

/** State options with their defaults. */
export function inputStateOptions(options: Partial<InputStateOptions> = {}): InputStateOptions {
  return { secret: options.secret ?? randomBytes(32), ttlMs: options.ttlMs ?? 10 * 60_000 };
}

/** Thrown by a handler's `input` when a question is not answered yet: the request answers `input_required`. */
export class InputRequired extends Error {
  constructor(
    readonly requests: Record<string, InputRequest>,
    readonly answers: Record<string, unknown>,
  ) {
    super('input required');
  }
}

/**
 * A refusal of the request itself that `input` makes (a capability the client did not declare, an answer of the wrong
 * kind in `inputResponses`): the request's JSON-RPC error, never a tool error. Any other JsonRpcError a tool throws
 * (one from a service it calls, say) stays the tool's own failure.
 */
export class InputRefusal extends JsonRpcError {}

/** What a signed state holds: the request it belongs to, when it was issued, and the answers so far. */
interface State {
  request: string;
  issued: number;
  answers: Record<string, unknown>;
}

/** JSON with object keys sorted, so that the same arguments name the same request however a client orders them. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObjectLike(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function sign(secret: Uint8Array, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** Signs the answers so far for the request named `request`. */
export function sealState(
  options: InputStateOptions,
  request: string,
  answers: Record<string, unknown>,
  now = Date.now(),
): string {
  const body = Buffer.from(JSON.stringify({ request, issued: now, answers } satisfies State)).toString(
    'base64url',
  );
  return `${body}.${sign(options.secret, body).toString('base64url')}`;
}

/** The answers a state carries; an invalid-params error when it was not issued by this server for this request. */
export function openState(
  options: InputStateOptions,
  request: string,
  token: string,
  now = Date.now(),
): Record<string, unknown> {
  const refuse = (why: string) =>
    new JsonRpcError(RPC_ERROR_CODES.invalidParams, `Invalid requestState: ${why}`);
  const [body = '', mac = '', ...rest] = token.split('.');
  const given = Buffer.from(mac, 'base64url');
  const expected = sign(options.secret, body);
  if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw refuse('this server did not issue it');
  // sound: the MAC matched, so sealState wrote this body, from a State.
  const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as State;
  if (state.request !== request) throw refuse('it was issued for another request');
  if (now - state.issued > options.ttlMs) throw refuse(`it is older than ${options.ttlMs / 1000} s`);
  return state.answers;
}
