// HTTP caching of the agent card (specification §8.6.1): `Cache-Control` with a `max-age`, a strong `ETag` of the
// bytes served, `Last-Modified`, and `If-None-Match` answered 304. It wraps whatever answers the card's path (the
// card is built per request, so the tag is of the bytes actually sent: a card that changes gets a new tag).
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';

/** How long a client may keep the card without asking again, in seconds, unless `cardMaxAge` says otherwise. */
export const DEFAULT_CARD_MAX_AGE = 300;

/** How many tags remember when they were first served (a card differs per origin asked; older ones are forgotten). */
const REMEMBERED = 64;

/** Adds §8.6.1's caching headers to the 200 answers of `GET path` on `app`, and answers 304 to a matching tag. */
export function cacheCard(app: Hono, path: string, maxAge: number = DEFAULT_CARD_MAX_AGE): void {
  if (!Number.isInteger(maxAge) || maxAge < 0)
    throw new Error(`cardMaxAge must be whole seconds, not ${maxAge}`);
  /** When this process first served each tag: the card's `Last-Modified` (the card carries no date of its own). */
  const firstServed = new Map<string, string>();
  app.get(path, async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    const bytes = new Uint8Array(await c.res.clone().arrayBuffer());
    const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
    let modified = firstServed.get(etag);
    if (modified === undefined) {
      if (firstServed.size >= REMEMBERED) firstServed.clear();
      modified = new Date().toUTCString();
      firstServed.set(etag, modified);
    }
    const headers = new Headers(c.res.headers);
    headers.set('Cache-Control', `max-age=${maxAge}`);
    headers.set('ETag', etag);
    headers.set('Last-Modified', modified);
    const fresh = matches(c.req.header('if-none-match'), etag);
    if (fresh) for (const name of ['content-type', 'content-length']) headers.delete(name);
    // Dropped first, so that Hono does not copy the old answer's headers onto the new one.
    c.res = undefined;
    c.res = fresh
      ? new Response(null, { status: 304, headers })
      : new Response(bytes, { status: 200, headers });
  });
}

/** Whether an `If-None-Match` value names `etag` (RFC 9110 §13.1.2: `*`, or a list compared weakly). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
