/**
 * What a generated server accepts at most from one request. Every app built by a generated factory has these limits
 * unless its options change them; a request over a limit is refused with a problem answer before its handler runs.
 */
export interface RequestLimits {
  /** Largest JSON or YAML body, in bytes (413 above it). */
  jsonBytes: number;
  /** Largest multipart or URL-encoded form body, in bytes (413); it also bounds each part. */
  formBytes: number;
  /** Largest raw body (`application/octet-stream` and other binary media types), in bytes (413). */
  binaryBytes: number;
  /** Most parts in one multipart body (413 above it). */
  formParts: number;
  /** Deepest nesting of objects and arrays in a JSON or YAML body; the value itself is depth 1 (400 above it). */
  depth: number;
}

/**
 * The limits every generated server starts with. JSON bodies of agent protocols are messages, a few kilobytes; a
 * megabyte leaves room for long inputs. Forms carry file uploads, so they get more.
 */
export const DEFAULT_LIMITS: Readonly<RequestLimits> = Object.freeze({
  jsonBytes: 1024 * 1024,
  formBytes: 32 * 1024 * 1024,
  binaryBytes: 32 * 1024 * 1024,
  formParts: 100,
  depth: 64,
});

/** The defaults, with the given limits in their place; throws for a limit that is not a positive whole number. */
export function resolveLimits(given: Partial<RequestLimits> = {}): RequestLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new TypeError(`limits.${name} must be a whole number of at least 1, not ${String(value)}`);
  }
  return limits;
}
