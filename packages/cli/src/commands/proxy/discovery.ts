// Discovery documents (a card naming the agent's endpoints) rewritten to name the proxy instead, so a client configured
// from the document keeps going through the proxy. Which documents and which of their fields are URLs of the agent is
// the protocol's data (the binding's `discoveryUrls`, from its manifest), never a protocol named here.
import { parsePointer } from '@agentproto/runtime/contract';

/** What rewriting one document did. */
export interface Rewritten {
  /** How many URLs now name the proxy. */
  count: number;
  /** The URLs it names that are not under the target: a client that follows them bypasses the proxy. */
  outside: string[];
}

/**
 * Points every URL at `pointers` (a `*` token standing for each index or key) that lies under `target` at the same
 * place under `proxy`, in place. `/a2a/v1` under `http://agent:8080/root` becomes `http://127.0.0.1:<port>/a2a/v1`.
 */
export function rewriteUrls(
  document: unknown,
  pointers: readonly string[],
  target: string,
  proxy: string,
): Rewritten {
  const from = withoutSlash(target);
  const to = withoutSlash(proxy);
  const out: Rewritten = { count: 0, outside: [] };
  const visit = (holder: unknown, tokens: readonly string[]): void => {
    if (typeof holder !== 'object' || holder === null) return;
    const [token, ...rest] = tokens;
    if (token === undefined) return;
    // sound: an object or array; its properties (indexes) are read and written by name
    const record = holder as Record<string, unknown>;
    const keys = token === '*' ? Object.keys(record) : Object.hasOwn(record, token) ? [token] : [];
    for (const key of keys) {
      const value = record[key];
      if (rest.length > 0) {
        visit(value, rest);
        continue;
      }
      if (typeof value !== 'string') continue;
      if (under(value, from)) {
        record[key] = to + value.slice(from.length);
        out.count++;
      } else if (/^https?:\/\//i.test(value)) out.outside.push(value);
    }
  };
  for (const pointer of pointers) visit(document, parsePointer(pointer));
  return out;
}

/** Whether `url` is `base` or a path, query or fragment under it. */
function under(url: string, base: string): boolean {
  if (!url.startsWith(base)) return false;
  const next = url.charAt(base.length);
  return next === '' || next === '/' || next === '?' || next === '#';
}

function withoutSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
