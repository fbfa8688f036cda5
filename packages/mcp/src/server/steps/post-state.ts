// What the steps of a POST to the MCP endpoint share: the message read once, the revision it is answered in, and the
// session it belongs to; and the one form every refusal before a method runs takes.
import { JsonRpcError } from '@agentproto/runtime';
import type { McpVersion } from '../../version-traits.js';
import type { Session } from '../sessions.js';

/** The JSON-RPC codes MCP adds for its transport: a header that disagrees with the body, a revision not served. */
export const MCP_TRANSPORT_ERRORS = Object.freeze({
  sessionNotFound: -32001,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
});

/** A JSON-RPC message as read from a POST: enough to route it (a reply to the server carries a result or an error). */
export interface Message {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: unknown;
  params?: { _meta?: Record<string, unknown>; [k: string]: unknown };
}

/** What the steps of one POST leave for the steps after them. */
export interface PostState {
  /** The body as read; a body that holds no message goes to the revision's JSON-RPC app as these bytes. */
  bytes: Uint8Array;
  /** The message the body holds; undefined when it holds none (not JSON within the limits, or not an object). */
  message: Message | undefined;
  /** The revision the request is answered in, once picked. */
  era: McpVersion | undefined;
  /** The session a request of a revision with a handshake belongs to, once matched. */
  session: Session | undefined;
}

/** The state a POST starts with: nothing read yet. */
export function startPost(): PostState {
  return { bytes: new Uint8Array(), message: undefined, era: undefined, session: undefined };
}

/** The revision a step after `pickRevision` works in; a step composed before it is a wiring mistake. */
export function eraOf(state: PostState): McpVersion {
  if (state.era === undefined) throw new Error('a step that needs the revision runs before pickRevision');
  return state.era;
}

/** Whether a message is a request (it has an id, so an answer), not a notification or a reply. */
export function isRequest(message: Message | undefined): boolean {
  return typeof message?.id === 'string' || typeof message?.id === 'number';
}

/** A refusal before any method runs: an HTTP status and a JSON-RPC error response (with the request's id if known). */
export function refuse(
  status: number,
  code: number,
  message: string,
  data?: unknown,
  id?: unknown,
): Response {
  const error = new JsonRpcError(code, message, data).toObject();
  const body = { jsonrpc: '2.0', ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}), error };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
