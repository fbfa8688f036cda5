// Sessions, for revisions with a handshake: the client's replies to the server's own requests, and every request
// after `initialize` carried by the session that `initialize` opened (Mcp-Session-Id).
import { RPC_ERROR_CODES, type Step } from '@agentproto/runtime';
import { VERSION_TRAITS } from '../../version-traits.js';
import type { ReplyRouter } from '../exchange.js';
import type { SessionStore } from '../sessions.js';
import { eraOf, MCP_TRANSPORT_ERRORS, type PostState, refuse } from './post-state.js';

/**
 * A reply to a request of ours goes to the request waiting on it (one that waits no more is ignored), within the
 * session it was asked in: 202 once settled; without a session 400, with one the server does not have 404, as for any
 * message. Other messages, and every message of a revision without a handshake, go on.
 */
export function settleReply(sessions: SessionStore | undefined, replies: ReplyRouter): Step<PostState> {
  return (c, state) => {
    const message = state.message;
    if (!message || !VERSION_TRAITS[eraOf(state)].handshake) return undefined;
    if (message.method !== undefined || !('result' in message || 'error' in message)) return undefined;
    if (!sessions) return c.body(null, 202);
    const id = c.req.header('mcp-session-id');
    if (!id) return refuse(400, RPC_ERROR_CODES.invalidRequest, 'Bad Request: no Mcp-Session-Id');
    if (!sessions.use(id)) return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found');
    replies.settle(id, message);
    return c.body(null, 202);
  };
}

/**
 * Leaves in `state.session` the session a request names (Mcp-Session-Id): 400 without one, 404 for one the server
 * does not have (ended, expired or never opened). `initialize` opens a session rather than naming one, and a server
 * that keeps none takes every request as it comes.
 */
export function requireSession(sessions: SessionStore | undefined): Step<PostState> {
  return (c, state) => {
    const message = state.message;
    if (!message || !sessions || !VERSION_TRAITS[eraOf(state)].handshake || message.method === 'initialize')
      return undefined;
    const id = c.req.header('mcp-session-id');
    if (!id)
      return refuse(
        400,
        RPC_ERROR_CODES.invalidRequest,
        'Bad Request: no Mcp-Session-Id (send initialize first)',
        undefined,
        message.id,
      );
    const session = sessions.use(id);
    if (!session)
      return refuse(404, MCP_TRANSPORT_ERRORS.sessionNotFound, 'Session not found', undefined, message.id);
    state.session = session;
    return undefined;
  };
}
