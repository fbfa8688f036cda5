// The guard that lets a value of unknown shape (a parsed answer, a generated body, a schema node) be read by key. Its
// own file because the kit and the schema-driven checks both read such values, and with it neither needs a cast.

/**
 * Whether a value is a non-null object, whose keys can then be read: an array passes too, as it does a `typeof`
 * check (callers that must tell them apart test `Array.isArray` first).
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
