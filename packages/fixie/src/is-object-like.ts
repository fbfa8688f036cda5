// The guard that turns a value of unknown shape (an error body an agent answered) into one whose keys can be read.
// Its own file so that every module of the package reads such values through the one test, none of them with a cast.

/**
 * Whether a value is a non-null object, so that its keys can be read: an array passes too, as it does a `typeof`
 * check (reading a key of one is as safe, and callers that must tell them apart test `Array.isArray` first).
 */
export function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
