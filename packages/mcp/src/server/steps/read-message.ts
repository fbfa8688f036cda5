// The body, read once within the limits, and the one JSON-RPC message it holds (MCP sends no batches).
import {
  parseJsonWithin,
  type RequestLimits,
  RPC_ERROR_CODES,
  readLimitedBytes,
  type Step,
} from '@agentproto/runtime';
import { type Message, type PostState, refuse } from './post-state.js';

/**
 * Reads the body into `state.bytes` and the message it holds into `state.message`: 413 past the body limit, 400 for a
 * batch. A body that is not JSON within the nesting limit, or not an object, leaves no message: the revision's
 * JSON-RPC app says which (-32700 or -32600) once the revision is known.
 */
export function readMessage(limits: Pick<RequestLimits, 'jsonBytes' | 'depth'>): Step<PostState> {
  return async (c, state) => {
    const read = await readLimitedBytes(c.req.raw, limits.jsonBytes);
    if (!read.ok)
      return refuse(
        413,
        RPC_ERROR_CODES.invalidRequest,
        `Payload Too Large: the body exceeds ${limits.jsonBytes} bytes`,
      );
    const value = parseJsonWithin(read.bytes, limits.depth)?.value;
    if (Array.isArray(value))
      return refuse(
        400,
        RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: one JSON-RPC message per POST (no batches)',
      );
    state.bytes = read.bytes;
    // sound: an object; each field a Message names is optional, and every step tests its type where it reads it.
    state.message = typeof value === 'object' && value !== null ? (value as Message) : undefined;
    return undefined;
  };
}
