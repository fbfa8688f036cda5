// The headers a revision with mirrored headers (2026-07-28) repeats from a request's body, as the client writes them:
// the method always, and the tool, prompt or resource it names.
import { isObjectLike } from '../is-object-like.js';

/** The param whose value `Mcp-Name` repeats, by method. */
export const NAMED_BY: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** `Mcp-Method`, and `Mcp-Name` where the method names something (base64-encoded when not plain ASCII). */
export function mirroredHeaders(method: string, params: unknown): Record<string, string> {
  const param = NAMED_BY[method];
  const name = param === undefined || !isObjectLike(params) ? undefined : params[param];
  // Sent as it is only when it survives a header as it is: visible ASCII, no space at either end, and not itself
  // in the encoded form; anything else goes base64-encoded, as the transport's value encoding says.
  const plain =
    typeof name === 'string' &&
    /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/.test(name) &&
    !(name.startsWith('=?base64?') && name.endsWith('?='));
  const header =
    typeof name !== 'string'
      ? undefined
      : plain
        ? name
        : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  return { 'mcp-method': method, ...(header !== undefined ? { 'mcp-name': header } : {}) };
}
