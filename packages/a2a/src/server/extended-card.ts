// The extended agent card behind a bearer token (specification 1.0 §3.1.11, §7.4, §13.3): the public card declares the
// scheme and `capabilities.extendedAgentCard`, and GetExtendedAgentCard answers only a request that carries the token.
// A request without it is refused with HTTP 401 and a `WWW-Authenticate: Bearer` challenge over every binding and
// version (§3.3.2's authentication errors; 0.3 §7.10), its body in the binding's own error form.
import { createHash, timingSafeEqual } from 'node:crypto';
import { JsonRpcError } from '@agentproto/runtime';
import type { MiddlewareHandler } from 'hono';
import type { AgentCardInput } from '../agent/agent.js';
import type { ErrorResponse } from '../generated/1.0/index.js';

/** The name the public card gives its bearer scheme (in `securitySchemes` and `securityRequirements`). */
export const BEARER_SCHEME = 'bearer';

/**
 * The JSON-RPC code of an authentication failure. 1.0 leaves it to the agent ("JSON-RPC custom error", §3.3.2); JSON-RPC
 * 2.0 §5.1 reserves -32000 to -32099 for implementation-defined server errors, of which A2A took -32001 to -32009.
 */
export const UNAUTHENTICATED_CODE = -32000;

/** A request refused for its credentials: HTTP 401 with a Bearer challenge, in the binding's error form. */
export class Unauthenticated extends JsonRpcError {
  constructor(
    message: string,
    /** The `WWW-Authenticate` value (RFC 6750 §3). */
    readonly challenge: string,
  ) {
    super(UNAUTHENTICATED_CODE, message);
  }

  /** The HTTP+JSON form: 401, an ErrorResponse with google.rpc's UNAUTHENTICATED, and the challenge. */
  toRest(): { status: 401; body: ErrorResponse; headers: Record<string, string> } {
    return {
      status: 401,
      body: { error: { code: 401, status: 'UNAUTHENTICATED', message: this.message } },
      headers: { 'www-authenticate': this.challenge },
    };
  }
}

/** The requests refused for their credentials, each with its challenge: the answer to one becomes a 401. */
const challenged = new WeakMap<Request, string>();

/**
 * Checks the request's `Authorization: Bearer <token>` against `token`, in constant time; throws Unauthenticated when
 * it is missing or wrong (RFC 6750 §3.1: `invalid_token` only when a token was given).
 */
export function requireBearer(request: Request, token: string): void {
  const given = /^Bearer +(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (given !== undefined && sameSecret(given, token)) return;
  const challenge =
    given === undefined
      ? 'Bearer realm="a2a"'
      : 'Bearer realm="a2a", error="invalid_token", error_description="the token is not valid"';
  challenged.set(request, challenge);
  throw new Unauthenticated(
    given === undefined
      ? 'the extended agent card needs authentication: send Authorization: Bearer <token> (the card declares the scheme)'
      : 'the bearer token is not valid for the extended agent card',
    challenge,
  );
}

/** Compares two secrets in time that does not depend on where they differ (their digests have one length). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Makes the answer to a request refused for its credentials a 401 with its challenge, whichever app answered it: the
 * JSON-RPC endpoints answer errors with 200, and 0.3's HTTP+JSON its own statuses. A JSON-RPC batch keeps its 200 (the
 * other calls in it may have succeeded) and gets the challenge.
 */
export const challengeUnauthenticated: MiddlewareHandler = async (c, next) => {
  await next();
  const challenge = challenged.get(c.req.raw);
  if (challenge === undefined) return;
  const text = await c.res.text();
  const headers = new Headers(c.res.headers);
  headers.set('www-authenticate', challenge);
  c.res = new Response(text, { status: text.trimStart().startsWith('[') ? c.res.status : 401, headers });
};

/** The public card with the bearer scheme declared, required, and the extended card announced. */
export function cardWithBearer(card: AgentCardInput): AgentCardInput {
  return {
    ...card,
    capabilities: { ...card.capabilities, extendedAgentCard: true },
    securitySchemes: {
      ...card.securitySchemes,
      [BEARER_SCHEME]: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          description: 'A bearer token the agent gave out of band; it opens the extended agent card.',
        },
      },
    },
    securityRequirements: [
      ...(card.securityRequirements ?? []),
      { schemes: { [BEARER_SCHEME]: { list: [] } } },
    ],
  };
}
