// Revisions without a handshake carry what routes a request twice: in the body and in headers a proxy can read
// (Mcp-Method, Mcp-Name, MCP-Protocol-Version). Where the two disagree the request is refused before it runs.
import type { Step } from '@agentproto/runtime';
import type { Context } from 'hono';
import { NAMED_BY } from '../../client/mirrored-headers.js';
import { VERSION_TRAITS } from '../../version-traits.js';
import { eraOf, MCP_TRANSPORT_ERRORS, type Message, type PostState, refuse } from './post-state.js';

/** Refuses (400, -32020) a request of a revision that mirrors its body in headers when they disagree. */
export const checkMirroredHeaders: Step<PostState> = (c, state) => {
  const era = eraOf(state);
  const message = state.message;
  if (!message || VERSION_TRAITS[era].handshake) return undefined;
  const mismatch = headerMismatch(c, message, era);
  if (!mismatch) return undefined;
  return refuse(
    400,
    MCP_TRANSPORT_ERRORS.headerMismatch,
    `Header mismatch: ${mismatch}`,
    undefined,
    message.id,
  );
};

/** Where a revision's mirrored headers disagree with the body, or undefined when they agree. */
function headerMismatch(c: Context, message: Message, era: string): string | undefined {
  const method = c.req.header('mcp-method');
  if (method !== message.method)
    return `Mcp-Method is ${JSON.stringify(method ?? null)}, the body's method ${JSON.stringify(message.method ?? null)}`;
  const meta = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (meta !== undefined && meta !== era)
    return `MCP-Protocol-Version is "${era}", the body's _meta says ${JSON.stringify(meta)}`;
  const param = typeof message.method === 'string' ? NAMED_BY[message.method] : undefined;
  if (param) {
    const name = decodeHeaderValue(c.req.header('mcp-name'));
    const value = message.params?.[param];
    if (name !== value)
      return `Mcp-Name is ${JSON.stringify(name ?? null)}, the body's ${param} ${JSON.stringify(value ?? null)}`;
  }
  return undefined;
}

/** A header value as sent, or decoded from the `=?base64?…?=` form used for values that are not plain ASCII. */
export function decodeHeaderValue(value: string | undefined): string | undefined {
  const encoded = value === undefined ? null : /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  if (!encoded) return value;
  return Buffer.from(encoded[1] ?? '', 'base64').toString('utf8');
}
