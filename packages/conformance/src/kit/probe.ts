// The probe: the request a suite declares as the one that tells whether the agent speaks the protocol at all (A2A: its
// card; MCP: initialize). When the check that sends it fails, its answer is judged here: an answer that says "not this
// protocol" makes the run one diagnosis, and blocks every other check.
import type { Exchange, ParsedFrame, SuiteSession } from '@agentproto/runtime/contract';

/** Statuses that say nothing of which protocol the agent speaks: a credential it wants, a timeout, a rate limit. */
const SAYS_NOTHING: readonly number[] = [401, 403, 407, 408, 429];

/** What the kit saw of the probe's request. */
export interface ProbeAnswer {
  /** The answer: a whole one (with the problems of its expected type), or a stream (with its items). */
  exchange: Exchange & { problems?: readonly string[]; items?: readonly ParsedFrame[] };
  /** The type the call expected for the answer's status; undefined when it named none. */
  expected: string | undefined;
}

/**
 * Why the probe's answer says the agent does not speak the protocol (`404 text/html`, `200 text/html, which is not
 * JSON`); undefined when the agent may speak it and only failed the check (a 5xx, a 401, a body of the right type).
 */
export function notSpoken({ exchange: x, expected }: ProbeAnswer): string | undefined {
  const media = (x.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const seen = `${x.status}${media ? ` ${media}` : ''}`;
  const problems = x.problems ?? [];
  if (x.status >= 400 && x.status <= 499) {
    if (SAYS_NOTHING.includes(x.status)) return undefined;
    // A refusal in the protocol's own words (a JSON-RPC error, say) is the protocol's.
    if (expected !== undefined && problems.length === 0) return undefined;
    return seen;
  }
  if (x.status < 200 || x.status > 299) return undefined;
  if (x.items !== undefined) {
    if (x.items.some((i) => i.ok)) return undefined;
    if (x.items.length === 0 && /event-stream|ndjson|jsonl/.test(media)) return undefined;
    return `${seen}, with no item that parses as JSON`;
  }
  if (expected === undefined || problems.length === 0) return undefined;
  if (x.body === undefined && !/event-stream/.test(media))
    return `${seen}, which is not ${/yaml/.test(media) ? 'YAML' : 'JSON'}`;
  const first = (problems[0] ?? '').replace(`${x.label}: `, '');
  return `${seen}: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
}

/**
 * A session that keeps the first answer to `request` (`GET /.well-known/agent-card.json`) while `watching()` says so:
 * the probe's answer, for the kit to judge when the probe's check fails.
 */
export function watchedSession(
  session: SuiteSession,
  request: string,
  watching: () => boolean,
): { session: SuiteSession; answer: () => ProbeAnswer | undefined } {
  let answer: ProbeAnswer | undefined;
  const keep = (method: string, path: string, expect: unknown, exchange: ProbeAnswer['exchange']) => {
    if (answer || !watching() || `${method} ${path}` !== request) return;
    const types = expect && typeof expect === 'object' ? new Map(Object.entries(expect)) : new Map();
    const type = types.get(String(exchange.status)) ?? types.get('*');
    answer = { exchange, expected: typeof type === 'string' ? type : undefined };
  };
  return {
    session: {
      async call(method, path, options) {
        const x = await session.call(method, path, options);
        keep(method, path, options?.expect, x);
        return x;
      },
      async stream(method, path, framing, options) {
        const x = await session.stream(method, path, framing, options);
        keep(method, path, options?.expect, x);
        return x;
      },
    },
    answer: () => answer,
  };
}
