// Deliberately broken agents for the conformance tests: a reference agent's fetch with one fault injected. Each
// fault rewrites the answers to the requests it matches and leaves every other exchange alone.
import { prop } from '../support/typed.js';

type Fetch = (request: Request) => Response | Promise<Response>;
// biome-ignore lint/suspicious/noExplicitAny: a fault edits whatever JSON the agent answered
type Json = any;

/** Which requests a fault touches: method, a pattern over path and query, and optionally the request body. */
export interface Match {
  method: string;
  path: RegExp;
  body?: (text: string) => boolean;
}

/** What a fault does to a matching exchange. */
export type Rewrite = (
  request: Request,
  forward: (request: Request) => Promise<Response>,
) => Promise<Response>;

/** An agent (a fetch) with one fault. */
export function broken(app: { fetch: Fetch }, match: Match, rewrite: Rewrite): { fetch: Fetch } {
  const forward = async (r: Request) => app.fetch(r);
  return {
    fetch: async (request) => {
      const url = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
      const hit =
        request.method === match.method &&
        match.path.test(`${url.pathname}${url.search}`) &&
        (match.body?.(body) ?? true);
      return hit ? rewrite(request, forward) : forward(request);
    },
  };
}

/** Answers with another status, same body. */
export const status =
  (code: number): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    return new Response(await r.text(), { status: code, headers: r.headers });
  };

/** Rewrites a JSON answer. */
export const json =
  (edit: (body: Json) => unknown): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    const headers = new Headers(r.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(edit(JSON.parse(await r.text()))), { status: r.status, headers });
  };

/** Replaces the body of the answer. */
export const text =
  (body: string): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    const headers = new Headers(r.headers);
    headers.delete('content-length');
    return new Response(body, { status: r.status, headers });
  };

/** Sets a response header. */
export const header =
  (name: string, value: string): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    const headers = new Headers(r.headers);
    headers.set(name, value);
    return new Response(r.body, { status: r.status, headers });
  };

/** Rewrites the request before it reaches the agent (the agent then answers something the check does not expect). */
export const request =
  (edit: (r: Request, body: string) => Request): Rewrite =>
  async (r, forward) =>
    forward(edit(r, r.method === 'GET' ? '' : await r.clone().text()));

/** Rewrites the items of an SSE answer (keeping each item's id: line). */
export const sse =
  (edit: (events: Json[]) => unknown[]): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    const frames = (await r.text()).split(/\n\n/).filter((f) => f.trim() !== '');
    const events = frames.map((f) => JSON.parse(/^data: (.*)$/m.exec(f)?.[1] ?? 'null'));
    const out = edit(events)
      .map((e) => {
        const id = prop(e, 'id');
        return `${typeof id === 'number' ? `id: ${id}\n` : ''}data: ${JSON.stringify(e)}\n\n`;
      })
      .join('');
    return new Response(out, { status: r.status, headers: r.headers });
  };

/** Rewrites the items of an NDJSON answer. */
export const ndjson =
  (edit: (items: Json[]) => unknown[]): Rewrite =>
  async (request, forward) => {
    const r = await forward(request);
    const items = (await r.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    return new Response(
      edit(items)
        .map((i) => `${JSON.stringify(i)}\n`)
        .join(''),
      { status: r.status, headers: r.headers },
    );
  };

/**
 * Answers a refusal (409) as if it had taken effect: with the body of the first success seen for a matching request.
 * What an agent that forgets a request already ended, or a question already answered, does under a race.
 */
export const acceptAgain = (): Rewrite => {
  let first: string | undefined;
  return async (request, forward) => {
    const r = await forward(request);
    const text = await r.text();
    if (r.status === 200) first ??= text;
    if (r.status !== 409 || first === undefined)
      return new Response(text, { status: r.status, headers: r.headers });
    return new Response(first, { status: 200, headers: { 'content-type': 'application/json' } });
  };
};
