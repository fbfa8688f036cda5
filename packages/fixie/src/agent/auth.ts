// Fixie's bearer tokens (fixieai 1.0 agent_base.py): the platform signs a token for each call, and the agent checks
// it against the platform's JWKS and audiences before any function runs.
import type { MiddlewareHandler } from 'hono';
import { createLocalJWKSet, createRemoteJWKSet, type JWK, type JWTPayload, jwtVerify } from 'jose';

/** The audiences the Fixie platform put in the tokens it signed for agents. */
export const FIXIE_AUDIENCES = ['https://app.fixie.ai/api', 'https://app.dev.fixie.ai/api'] as const;

/** A verified bearer token: the raw token and its claims. */
export interface VerifiedToken {
  token: string;
  claims: JWTPayload & { aid?: string };
}

/**
 * Decides whether a bearer token may call the agent: return the claims to accept it, or throw (or return undefined)
 * to refuse it with 403 `Invalid token`.
 */
export type TokenVerifier = (token: string) => Promise<JWTPayload | undefined> | JWTPayload | undefined;

/** Options of {@link fixieTokenVerifier}: where the signing keys are, and what the claims must say. */
export interface FixieTokenOptions {
  /** A JWKS URL, as the SDK used (`${FIXIE_API_URL}/.well-known/jwks.json`). */
  jwksUrl?: string;
  /** Or the keys themselves: a JWK Set, or one public JWK. */
  keys?: { keys: JWK[] } | JWK;
  /** Accepted audiences (default: the Fixie platform's). */
  audience?: string | readonly string[];
  /** Only this agent id (`aid` claim) may call, as the SDK's FIXIE_ALLOWED_AGENT_ID did. */
  allowedAgentId?: string;
  /** The `iss` claim a token must carry (one of these). Default: not checked, as the SDK did not. */
  issuer?: string | readonly string[];
  /**
   * Refuse tokens without an `exp` claim (default true): a token that never expires, once leaked, works forever.
   * Set false only for a platform that signs tokens without one.
   */
  requireExp?: boolean;
}

/**
 * A ready verifier for Fixie tokens: EdDSA-signed JWTs (checked with jose) against a JWKS URL or given keys, with
 * one of the accepted audiences, an `aid` claim, an `exp` claim (unless `requireExp: false`) that has not passed, and
 * the `issuer` when one is given.
 */
export function fixieTokenVerifier(options: FixieTokenOptions): TokenVerifier {
  const keySet = options.jwksUrl
    ? createRemoteJWKSet(new URL(options.jwksUrl))
    : options.keys
      ? createLocalJWKSet('keys' in options.keys ? options.keys : { keys: [options.keys] })
      : undefined;
  if (!keySet) throw new TypeError('fixieTokenVerifier needs a jwksUrl or keys');
  const audience = options.audience ?? FIXIE_AUDIENCES;
  return async (token) => {
    const { payload } = await jwtVerify(token, keySet, {
      algorithms: ['EdDSA'],
      audience: typeof audience === 'string' ? audience : [...audience],
      ...(options.issuer === undefined
        ? {}
        : { issuer: typeof options.issuer === 'string' ? options.issuer : [...options.issuer] }),
      requiredClaims: options.requireExp === false ? [] : ['exp'],
    });
    if (typeof payload.aid !== 'string') throw new Error('the token has no aid claim');
    if (options.allowedAgentId !== undefined && payload.aid !== options.allowedAgentId)
      throw new Error(`agent ${payload.aid} may not call this agent`);
    return payload;
  };
}

/** The context variable under which a verified token is kept for handlers. */
export const TOKEN_VARIABLE = 'fixieToken';

// The variable's type, declared to Hono as its own middleware declare theirs: `c.get(TOKEN_VARIABLE)` is typed.
declare module 'hono' {
  interface ContextVariableMap {
    /** The caller's verified bearer token, on a request to an agent that checks tokens (bearerAuth). */
    [TOKEN_VARIABLE]?: VerifiedToken;
  }
}

/**
 * Refuses requests without a valid bearer token, as the SDK did: 403 `{"detail": "Not authenticated"}` without one
 * (FastAPI's HTTPBearer), 403 `{"detail": "Invalid token"}` for one the verifier refuses. The verified token is kept
 * on the context for the handlers (which also compare it with the body's `access_token`).
 */
export function bearerAuth(verify: TokenVerifier): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return c.json({ detail: 'Not authenticated' }, 403, { 'www-authenticate': 'Bearer' });
    let claims: JWTPayload | undefined;
    try {
      claims = await verify(match[1]);
    } catch {
      claims = undefined;
    }
    if (!claims) return c.json({ detail: 'Invalid token' }, 403);
    c.set(TOKEN_VARIABLE, { token: match[1], claims });
    await next();
  };
}
