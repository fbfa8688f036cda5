// `--header "Name: value"` (repeatable), as `inspect` and `conformance` take it.
import { UsageError } from './exit-codes.js';

/** The headers `--header "Name: value"` options give (repeatable); a usage error for one that is not a header. */
export function headerOptions(given: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of given ?? []) {
    const colon = h.indexOf(':');
    const name = colon > 0 ? h.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--header ${h}: give it as "Name: value"`);
    headers[name] = h.slice(colon + 1).trim();
  }
  return headers;
}
