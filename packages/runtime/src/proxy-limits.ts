/**
 * What a validating proxy (`agentproto proxy`) holds at most while it checks the traffic it passes on. Past a limit the
 * traffic still passes, unchanged; only the checking stops, and the proxy says so. So an agent that answers with an
 * endless stream or a huge body cannot make the proxy hold more than these.
 */
export interface ProxyLimits {
  /** Largest whole body (a request, or an answer that is not a stream) read for checking, in bytes once decoded. */
  bodyBytes: number;
  /** Longest stream item (an NDJSON line, an SSE field) read for checking, in characters. */
  itemLength: number;
  /** Most bodies and streams checked at the same time; more pass through unchecked. */
  concurrent: number;
  /** Longest message head (request or status line and header fields) read, in bytes; a longer request gets a 431. */
  headBytes: number;
  /** Most bytes of the session file waiting to be written; past them records are dropped (and the file says so). */
  sessionBacklogBytes: number;
  /**
   * Most bytes of an idempotent request kept, until its answer begins, to send it again when the agent closed the kept
   * connection it went on; a longer request is not sent again (its client gets the 502).
   */
  replayBytes: number;
}

/**
 * The limits a proxy starts with. Agent messages are a few kilobytes; 8 MiB leaves room for long answers, 1 Mi
 * characters for any event, and 64 bodies or streams at once for a busy client: at most about 64 × 8 MiB held. Heads
 * up to 16 KiB, node:http's default (`--max-http-header-size`); 64 KiB of a request kept to send again.
 */
export const DEFAULT_PROXY_LIMITS: Readonly<ProxyLimits> = Object.freeze({
  bodyBytes: 8 * 1024 * 1024,
  itemLength: 1024 * 1024,
  concurrent: 64,
  headBytes: 16 * 1024,
  sessionBacklogBytes: 8 * 1024 * 1024,
  replayBytes: 64 * 1024,
});

/** The defaults, with the given limits in their place; throws for a limit that is not a positive whole number. */
export function resolveProxyLimits(given: Partial<ProxyLimits> = {}): ProxyLimits {
  const limits = { ...DEFAULT_PROXY_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new TypeError(`limits.${name} must be a whole number of at least 1, not ${String(value)}`);
  }
  return limits;
}
