// Each step of a POST alone, through app.request(): what it answers, and what it leaves for the next step (the probe
// after it answers with the state it was handed).
import { pipeline, type Step } from '@agentproto/runtime';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { McpVersion } from '../../version-traits.js';
import { ReplyRouter } from '../exchange.js';
import { SessionStore } from '../sessions.js';
import { acceptsBoth } from './accept.js';
import { checkMirroredHeaders, decodeHeaderValue } from './mirrored-headers.js';
import { pickRevision } from './pick-revision.js';
import type { PostState } from './post-state.js';
import { readMessage } from './read-message.js';
import { requireSession, settleReply } from './sessions.js';

const OLD: McpVersion = '2025-11-25';
const NEW: McpVersion = '2026-07-28';

/** What reached the probe: the state the steps left, as JSON. */
const probe: Step<PostState> = (c, state) =>
  c.json({
    reached: true,
    era: state.era ?? null,
    message: state.message ?? null,
    session: state.session?.id ?? null,
  });

/** A POST through `steps` then the probe; the answer's status and body. */
async function post(
  steps: Step<PostState>[],
  given: { body?: string; headers?: Record<string, string>; state?: Partial<PostState> } = {},
) {
  const app = new Hono();
  app.post(
    '/',
    pipeline(
      () => ({
        bytes: new Uint8Array(),
        message: undefined,
        era: undefined,
        session: undefined,
        ...given.state,
      }),
      [...steps, probe],
    ),
  );
  const res = await app.request('/', {
    method: 'POST',
    body: given.body ?? '{}',
    headers: { 'content-type': 'application/json', ...given.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

describe('steps > accept', () => {
  const cases: Array<[string, { accept: string | undefined; want: number }]> = [
    ['both named', { accept: 'application/json, text/event-stream', want: 200 }],
    ['any', { accept: '*/*', want: 200 }],
    ['JSON only', { accept: 'application/json', want: 406 }],
    ['events only', { accept: 'text/event-stream', want: 406 }],
    ['none', { accept: undefined, want: 406 }],
  ];
  it.each(cases)('%s', async (_name, { accept, want }) => {
    const got = await post([acceptsBoth], { headers: accept === undefined ? {} : { accept } });
    expect(got.status).toBe(want);
    if (want === 406) expect(got.body.error.code).toBe(-32600);
  });
});

describe('steps > read message', () => {
  const read = readMessage({ jsonBytes: 64, depth: 4 });
  it('an object > left as the message', async () => {
    const got = await post([read], { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(got.body.message).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });
  it('past the body limit > 413 before anything is parsed', async () => {
    const got = await post([read], { body: `{"a":"${'x'.repeat(100)}"}` });
    expect(got.status).toBe(413);
    expect(got.body.error.message).toBe('Payload Too Large: the body exceeds 64 bytes');
  });
  it('a batch > 400', async () => {
    const got = await post([read], { body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' });
    expect(got.status).toBe(400);
    expect(got.body.error.message).toMatch(/no batches/);
  });
  it.each([
    ['not JSON', '{"a":'],
    ['not an object', '"ping"'],
    ['deeper than the limit', '{"a":{"b":{"c":{"d":{"e":1}}}}}'],
  ])('%s > no message, left to the revision to refuse', async (_name, body) => {
    const got = await post([read], { body });
    expect(got).toMatchObject({ status: 200, body: { reached: true, message: null } });
  });
});

describe('steps > pick revision', () => {
  const both = pickRevision([OLD, NEW], [OLD]);
  it('the header > names it', async () => {
    const got = await post([both], { headers: { 'mcp-protocol-version': NEW } });
    expect(got.body.era).toBe(NEW);
  });
  it('no header > the handshake revision', async () => {
    expect((await post([both])).body.era).toBe(OLD);
  });
  it('a revision not served > 400 with -32022, the revisions served and the request id', async () => {
    const got = await post([both], {
      headers: { 'mcp-protocol-version': '2024-01-01' },
      state: { message: { id: 7, method: 'ping' } },
    });
    expect(got.status).toBe(400);
    expect(got.body).toMatchObject({ id: 7, error: { code: -32022, data: { supported: [OLD, NEW] } } });
  });
  it('no header and no handshake revision served > 400', async () => {
    const got = await post([pickRevision([NEW], [])]);
    expect(got.status).toBe(400);
    expect(got.body.error.message).toMatch(/no MCP-Protocol-Version/);
  });
});

describe('steps > sessions', () => {
  const request = { id: 1, method: 'tools/list' };
  it('a request in a session > the session is left for the answer', async () => {
    const sessions = new SessionStore();
    const open = sessions.open(OLD);
    const got = await post([requireSession(sessions)], {
      headers: { 'mcp-session-id': open.id },
      state: { era: OLD, message: request },
    });
    expect(got.body.session).toBe(open.id);
  });
  it.each([
    ['no session named', {}, 400],
    ['a session the server does not have', { 'mcp-session-id': 'gone' }, 404],
  ] as const)('%s > %d', async (_name, headers, status) => {
    const got = await post([requireSession(new SessionStore())], {
      headers,
      state: { era: OLD, message: request },
    });
    expect(got.status).toBe(status);
    expect(got.body.id).toBe(1);
  });
  it.each([
    ['initialize opens one rather than naming one', OLD, { id: 1, method: 'initialize' }],
    ['a revision without a handshake has none', NEW, request],
  ])('%s > goes on', async (_name, era, message) => {
    const got = await post([requireSession(new SessionStore())], { state: { era, message } });
    expect(got.body).toMatchObject({ reached: true, session: null });
  });
  it('a reply > settles the request waiting on it: 202, and the probe is not reached', async () => {
    const sessions = new SessionStore();
    const open = sessions.open(OLD);
    const replies = new ReplyRouter();
    let asked = '';
    const waiting = replies.wait(open.id, new AbortController().signal, (id) => {
      asked = id;
      return true;
    });
    const got = await post([settleReply(sessions, replies)], {
      headers: { 'mcp-session-id': open.id },
      state: { era: OLD, message: { id: asked, result: { action: 'accept' } } },
    });
    expect(got.status).toBe(202);
    await expect(waiting).resolves.toEqual({ action: 'accept' });
  });
  it('a reply without a session > 400; in one the server does not have > 404', async () => {
    const step = settleReply(new SessionStore(), new ReplyRouter());
    const reply = { id: 'x', result: {} };
    expect((await post([step], { state: { era: OLD, message: reply } })).status).toBe(400);
    const unknown = await post([step], {
      headers: { 'mcp-session-id': 'gone' },
      state: { era: OLD, message: reply },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('steps > mirrored headers', () => {
  const call = { id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } };
  const agreeing = { 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  const cases: Array<[string, { headers: Record<string, string>; want: number; says?: RegExp }]> = [
    ['headers that agree', { headers: agreeing, want: 200 }],
    ['the name encoded', { headers: { ...agreeing, 'mcp-name': '=?base64?ZWNobw==?=' }, want: 200 }],
    [
      'another method',
      { headers: { ...agreeing, 'mcp-method': 'tools/list' }, want: 400, says: /Mcp-Method/ },
    ],
    ['another name', { headers: { ...agreeing, 'mcp-name': 'add' }, want: 400, says: /Mcp-Name/ }],
    ['no method header', { headers: { 'mcp-name': 'echo' }, want: 400, says: /Mcp-Method is null/ }],
  ];
  it.each(cases)('%s > %s', async (_name, { headers, want, says }) => {
    const got = await post([checkMirroredHeaders], { headers, state: { era: NEW, message: call } });
    expect(got.status).toBe(want);
    if (says) expect(got.body.error).toMatchObject({ code: -32020, message: expect.stringMatching(says) });
  });
  it('a revision with a handshake mirrors nothing > goes on', async () => {
    const got = await post([checkMirroredHeaders], { state: { era: OLD, message: call } });
    expect(got.status).toBe(200);
  });
  it('decoding > only the sentinel form, case-sensitive', () => {
    expect(decodeHeaderValue('=?base64?w6k=?=')).toBe('é');
    expect(decodeHeaderValue('=?BASE64?w6k=?=')).toBe('=?BASE64?w6k=?=');
    expect(decodeHeaderValue(undefined)).toBeUndefined();
  });
});
