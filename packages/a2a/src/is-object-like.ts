// The guard that turns a value of unknown shape (a parsed body, a card, a stream event) into one whose keys can be
// read. Its own file because the server, the client, the stream rules and the conformance suite all read such values,
// and with one guard none of them needs a cast to do it (packages/mcp has the same one).

/**
 * Whether a value is a non-null object, so that its keys can be read: an array passes too, as it does a `typeof`
 * check (reading a key of one is as safe, and callers that must tell them apart test `Array.isArray` first).
 */
export function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
