import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createReferenceAgent } from '../reference-agent/index.js';
import { cacheCard, DEFAULT_CARD_MAX_AGE } from './card-cache.js';

const CARD = '/.well-known/agent-card.json';
const { app } = createReferenceAgent({ chunkDelayMs: 0 });
const card = (headers: Record<string, string> = {}, host = 'http://agent.test') =>
  app.request(`${host}${CARD}`, { headers });

describe('card cache', () => {
  it('headers > Cache-Control with the default max-age, a strong ETag of the bytes, Last-Modified', async () => {
    const res = await card();
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('base64url');
    expect(res.headers.get('cache-control')).toBe(`max-age=${DEFAULT_CARD_MAX_AGE}`);
    expect(res.headers.get('etag')).toBe(`"${digest}"`);
    expect(Date.parse(res.headers.get('last-modified') ?? '')).not.toBeNaN();
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('headers > the same card keeps its tag and date; a card for another origin has its own tag', async () => {
    const [a, b, other] = [await card(), await card(), await card({}, 'http://elsewhere.test')];
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(b.headers.get('last-modified')).toBe(a.headers.get('last-modified'));
    expect(other.headers.get('etag')).not.toBe(a.headers.get('etag'));
  });

  it.each([
    ['the tag', (tag: string) => tag, 304],
    ['the tag among others', (tag: string) => `"other", ${tag}`, 304],
    ['the tag, weak', (tag: string) => `W/${tag}`, 304],
    ['any tag', () => '*', 304],
    ['another tag', () => '"other"', 200],
  ] as const)('If-None-Match > %s answers %i', async (_, header, status) => {
    const tag = (await card()).headers.get('etag') ?? '';
    const res = await card({ 'If-None-Match': header(tag) });
    expect(res.status).toBe(status);
    expect(res.headers.get('etag')).toBe(tag);
    expect(res.headers.get('cache-control')).toBe(`max-age=${DEFAULT_CARD_MAX_AGE}`);
    if (status === 304) expect(await res.text()).toBe('');
    else expect(JSON.parse(await res.text()).name).toBeTypeOf('string');
  });

  it('options > cardMaxAge sets max-age; a negative or fractional one is refused', async () => {
    const short = createReferenceAgent({ chunkDelayMs: 0, cardMaxAge: 60 });
    expect((await short.app.request(CARD)).headers.get('cache-control')).toBe('max-age=60');
    for (const bad of [-1, 1.5]) expect(() => cacheCard(new Hono(), CARD, bad)).toThrow(/whole seconds/);
  });

  it('scope > other answers get no card headers', async () => {
    const res = await app.request('/tasks/nope', { headers: { 'A2A-Version': '1.0' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
  });
});
