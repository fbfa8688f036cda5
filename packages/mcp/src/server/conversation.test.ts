import { describe, expect, it } from 'vitest';
import { bodyOf, prop, record } from '../../../../test/support/typed.js';
import { GENERATED } from '../generated/modules.js';
import { createReferenceServer } from '../reference-agent/index.js';
import { AnswerStream, MAX_UNREAD_EVENTS, ReplyRouter } from './exchange.js';
import { canonicalJson, inputStateOptions, openState, sealState } from './input-rounds.js';
import { createMcpApp } from './streamable-http.js';

const OLD = '2025-11-25';
const NEW = '2026-07-28';
type Json = Record<string, unknown>;
type App = ReturnType<typeof createReferenceServer>['app'];

function post(app: App, body: unknown, headers: Record<string, string> = {}) {
  return app.request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A 2025-11-25 session whose client declared `capabilities`. */
async function session(capabilities: Json = {}) {
  const app = createReferenceServer().app;
  const answer = await post(app, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: OLD, capabilities, clientInfo: { name: 'test', version: '1' } },
  });
  const headers = {
    'mcp-session-id': answer.headers.get('mcp-session-id') ?? '',
    'mcp-protocol-version': OLD,
  };
  const call = (id: number, method: string, params: Json = {}) =>
    post(app, { jsonrpc: '2.0', id, method, params }, headers);
  return { app, headers, call };
}

/** The messages of an SSE answer, read to its end. */
async function events(answer: Response): Promise<Json[]> {
  expect(answer.headers.get('content-type')).toBe('text/event-stream');
  return (await answer.text())
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => record(JSON.parse(e.slice(6))));
}

/** Reads an SSE answer until a message matching `until` arrives; the reader stays open for the rest. */
async function readUntil(answer: Response, until: (m: Json) => boolean) {
  const reader = bodyOf(answer).getReader();
  let text = '';
  for (let i = 0; i < 100; i++) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const found = text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => record(JSON.parse(e.slice(6))))
      .find(until);
    if (found) return { found, reader };
  }
  throw new Error(`the stream ended without the message: ${text}`);
}

/** What a stream's reader still holds, read to the stream's end (at most 100 chunks). */
async function restOf(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let rest = '';
  for (let i = 0; i < 100; i++) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += new TextDecoder().decode(value);
  }
  return rest;
}

/** A 2026-07-28 request with its mirrored headers, from a client that declared `capabilities`. */
function stateless(method: string, params: Json, capabilities: Json = {}) {
  return {
    body: {
      jsonrpc: '2.0',
      id: 9,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': NEW,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    },
    headers: {
      'mcp-protocol-version': NEW,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
  };
}

async function statelessCall(app: App, method: string, params: Json, capabilities: Json = {}) {
  const { body, headers } = stateless(method, params, capabilities);
  const answer = await post(app, body, headers);
  return { status: answer.status, body: record(await answer.json()) };
}

describe('mcp conversation > 2025-11-25: messages on the answer stream', () => {
  it('progress > with a progress token, three reports then the result on one stream; without one, plain JSON', async () => {
    const { call } = await session();
    const streamed = await events(
      await call(2, 'tools/call', {
        name: 'test_tool_with_progress',
        arguments: {},
        _meta: { progressToken: 'p-1' },
      }),
    );
    expect(streamed.map((m) => m.method ?? 'answer')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'answer',
    ]);
    expect(streamed.slice(0, 3).map((m) => prop(m.params, 'progressToken'))).toEqual(['p-1', 'p-1', 'p-1']);
    expect(streamed.slice(0, 3).map((m) => prop(m.params, 'progress'))).toEqual([0, 50, 100]);
    expect(streamed[3]).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
    const plain = await call(3, 'tools/call', { name: 'test_tool_with_progress', arguments: {} });
    expect(plain.headers.get('content-type')).toContain('application/json');
  });

  it('logging > nothing until the client asks for a level; then messages at that level or above', async () => {
    const { call } = await session();
    const quiet = await call(2, 'tools/call', { name: 'test_tool_with_logging', arguments: {} });
    expect(quiet.headers.get('content-type')).toContain('application/json');
    expect((await call(3, 'logging/setLevel', { level: 'debug' })).status).toBe(200);
    const logged = await events(
      await call(4, 'tools/call', { name: 'test_tool_with_logging', arguments: {} }),
    );
    expect(logged.filter((m) => m.method === 'notifications/message')).toHaveLength(3);
    expect((await call(5, 'logging/setLevel', { level: 'error' })).status).toBe(200);
    const above = await call(6, 'tools/call', { name: 'test_tool_with_logging', arguments: {} });
    expect(above.headers.get('content-type')).toContain('application/json');
  });

  it('sampling > the request on the stream, the reply in a POST of its own (202), then the result', async () => {
    const { app, headers, call } = await session({ sampling: {} });
    const answer = await call(2, 'tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi?' } });
    const { found, reader } = await readUntil(answer, (m) => m.method === 'sampling/createMessage');
    expect(GENERATED[OLD].validators.CreateMessageRequest(found)).toBe(true);
    // A reply nobody waits for is taken and ignored; the right one completes the tool.
    expect((await post(app, { jsonrpc: '2.0', id: 'server-999', result: {} }, headers)).status).toBe(202);
    const reply = {
      jsonrpc: '2.0',
      id: found.id,
      result: { role: 'assistant', content: { type: 'text', text: 'Hello.' }, model: 'm' },
    };
    expect((await post(app, reply, headers)).status).toBe(202);
    const rest = await restOf(reader);
    expect(rest).toContain('LLM response: Hello.');
  });

  it("replies > only in the session that was asked: another session's is ignored; none is 400, an unknown one 404", async () => {
    const asked = await session({ sampling: {} });
    const other = await session({ sampling: {} });
    const answer = await asked.call(2, 'tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi?' } });
    const { found, reader } = await readUntil(answer, (m) => m.method === 'sampling/createMessage');
    const reply = (text: string) => ({
      jsonrpc: '2.0',
      id: found.id,
      result: { role: 'assistant', content: { type: 'text', text }, model: 'm' },
    });
    expect((await post(asked.app, reply('from elsewhere'), other.headers)).status).toBe(404);
    expect((await post(other.app, reply('from elsewhere'), other.headers)).status).toBe(202);
    expect((await post(asked.app, reply('none'), { 'mcp-protocol-version': OLD })).status).toBe(400);
    expect((await post(asked.app, reply('mine'), asked.headers)).status).toBe(202);
    const rest = await restOf(reader);
    expect(rest).toContain('LLM response: mine');
  });

  it('notifications > a notification gets 202 and no body, whatever its handler would say', async () => {
    const { app, headers } = await session();
    const answer = await post(
      app,
      {
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'n' } },
      },
      headers,
    );
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe('');
  });

  it('sampling > a reply that is not a CreateMessageResult is a tool error, not a result built on it', async () => {
    const { app, headers, call } = await session({ sampling: {} });
    const answer = await call(2, 'tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi?' } });
    const { found, reader } = await readUntil(answer, (m) => m.method === 'sampling/createMessage');
    await post(app, { jsonrpc: '2.0', id: found.id, result: { role: 'nobody' } }, headers);
    const rest = await restOf(reader);
    expect(rest).toContain('is not a CreateMessageResult');
    expect(rest).not.toContain('LLM response');
  });

  it('sampling > a client that did not declare it gets a tool error naming the capability, and no request', async () => {
    const { call } = await session();
    const answer = await call(2, 'tools/call', { name: 'test_sampling', arguments: { prompt: 'Hi?' } });
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(await answer.json()).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining('did not declare sampling') }] },
    });
  });
});

describe('mcp conversation > 2026-07-28: input_required rounds', () => {
  const v = GENERATED[NEW].validators;
  const caps = { elicitation: {}, sampling: {}, roots: {} };

  it('a question ends the round with the request and a signed state; the retry with the answer completes', async () => {
    const app = createReferenceServer().app;
    const first = await statelessCall(
      app,
      'tools/call',
      { name: 'test_input_required_result_elicitation', arguments: {} },
      caps,
    );
    const round = record(first.body.result);
    expect(v.InputRequiredResult(round), JSON.stringify(v.InputRequiredResult.errors)).toBe(true);
    expect(round).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
      requestState: expect.any(String),
    });
    const second = await statelessCall(
      app,
      'tools/call',
      {
        name: 'test_input_required_result_elicitation',
        arguments: {},
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: round.requestState,
      },
      caps,
    );
    expect(second.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: expect.stringContaining('Ada') }],
    });
  });

  it('several rounds: each state differs and carries the earlier answers', async () => {
    const app = createReferenceServer().app;
    const tool = { name: 'test_input_required_result_multi_round', arguments: {} };
    const one = record((await statelessCall(app, 'tools/call', tool, caps)).body.result);
    const two = record(
      (
        await statelessCall(
          app,
          'tools/call',
          {
            ...tool,
            inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
            requestState: one.requestState,
          },
          caps,
        )
      ).body.result,
    );
    expect(two).toMatchObject({ resultType: 'input_required', inputRequests: { favorite_color: {} } });
    expect(two.requestState).not.toBe(one.requestState);
    const three = await statelessCall(
      app,
      'tools/call',
      {
        ...tool,
        inputResponses: { favorite_color: { action: 'accept', content: { color: 'teal' } } },
        requestState: two.requestState,
      },
      caps,
    );
    expect(three.body.result).toMatchObject({ content: [{ text: 'Ada likes teal.' }] });
  });

  it('a state altered, or issued for another request, is -32602; so is an answer of the wrong kind', async () => {
    const app = createReferenceServer().app;
    const tool = { name: 'test_input_required_result_tampered_state', arguments: {} };
    const { requestState } = record((await statelessCall(app, 'tools/call', tool, caps)).body.result);
    const confirm = { confirm: { action: 'accept', content: { ok: true } } };
    for (const [name, state] of [
      [tool.name, `${requestState}-TAMPERED`],
      ['test_input_required_result_request_state', requestState],
    ]) {
      const answer = await statelessCall(
        app,
        'tools/call',
        { name, arguments: {}, inputResponses: confirm, requestState: state },
        caps,
      );
      expect(answer.body).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('requestState') },
      });
    }
    const wrongKind = await statelessCall(
      app,
      'tools/call',
      { ...tool, inputResponses: { confirm: { roots: [] } }, requestState },
      caps,
    );
    expect(wrongKind.body).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('ElicitResult') },
    });
  });

  it('a question the client cannot answer is 400 and -32021 naming the capability', async () => {
    const app = createReferenceServer().app;
    const answer = await statelessCall(app, 'tools/call', { name: 'test_missing_capability', arguments: {} });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
    });
  });

  it('a request without the _meta every request carries is 400 and -32602', async () => {
    const app = createReferenceServer().app;
    const answer = await post(
      app,
      { jsonrpc: '2.0', id: 4, method: 'server/discover', params: {} },
      { 'mcp-protocol-version': NEW, 'mcp-method': 'server/discover' },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  it('log messages only for a request that asks for a level', async () => {
    const app = createReferenceServer().app;
    const quiet = stateless('tools/call', { name: 'test_logging_tool', arguments: {} });
    expect((await post(app, quiet.body, quiet.headers)).headers.get('content-type')).toContain(
      'application/json',
    );
    const loud = stateless('tools/call', { name: 'test_logging_tool', arguments: {} });
    record(loud.body.params._meta)['io.modelcontextprotocol/logLevel'] = 'info';
    const logged = await events(await post(app, loud.body, loud.headers));
    expect(logged.filter((m) => m.method === 'notifications/message')).toHaveLength(3);
  });
});

describe('mcp conversation > parts', () => {
  it('state > signed, tied to its request, and too old is refused', () => {
    const options = inputStateOptions({ ttlMs: 1000 });
    const token = sealState(options, 'a', { k: 1 }, 0);
    expect(openState(options, 'a', token, 500)).toEqual({ k: 1 });
    expect(() => openState(options, 'b', token, 500)).toThrow(/another request/);
    expect(() => openState(options, 'a', token, 5000)).toThrow(/older than/);
    expect(() => openState(inputStateOptions(), 'a', token, 500)).toThrow(/did not issue/);
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: null })).toBe('{"a":null,"b":[1,{"c":3,"d":2}]}');
  });

  it('replies > bounded in number, and a request nobody answers ends with an error', async () => {
    const router = new ReplyRouter({ maxPending: 1, timeoutMs: 5 });
    const signal = new AbortController().signal;
    const waiting = router.wait('s', signal, () => true);
    await expect(router.wait('s', signal, () => true)).rejects.toThrow(/Too many/);
    await expect(waiting).rejects.toThrow(/did not reply/);
    expect(router.size).toBe(0);
    const aborter = new AbortController();
    const abandoned = router.wait('s', aborter.signal, () => true);
    aborter.abort();
    await expect(abandoned).rejects.toThrow(/abandoned/);
  });

  it('stream > a client that does not read loses notifications past the bound, never the answer', async () => {
    const stream = new AnswerStream();
    for (let i = 0; i < MAX_UNREAD_EVENTS * 2; i++)
      stream.send({ method: 'notifications/message', n: i }, true);
    expect(stream.send({ id: 'server-1', method: 'roots/list' })).toBe(true);
    stream.end('{"id":1,"result":{}}');
    const events = (await new Response(stream.readable).text()).split('\n\n').filter(Boolean);
    // The notifications up to the bound, then the request past it, then the answer.
    expect(events.length).toBe(MAX_UNREAD_EVENTS + 1 + 2);
    expect(events.at(-2)).toBe('data: {"id":"server-1","method":"roots/list"}');
    expect(events.at(-1)).toBe('data: {"id":1,"result":{}}');
    expect(stream.send({ method: 'late' })).toBe(false);
  });
});

describe('answer > a stream opened after the handler first waited', () => {
  it('progress sent after an await still makes the answer a stream, which ends with the result', async () => {
    const app = createMcpApp(
      {
        info: { name: 'later', version: '1' },
        tools: [
          {
            name: 'later',
            inputSchema: { type: 'object' },
            call: async (_args, context) => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              context.progress(1, 1);
              return { content: [{ type: 'text', text: 'done' }] };
            },
          },
        ],
      },
      { sessions: false },
    );
    const answer = await post(
      app,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'later', arguments: {}, _meta: { progressToken: 'p' } },
      },
      { 'mcp-protocol-version': OLD },
    );
    const streamed = await events(answer);
    expect(streamed.map((m) => m.method)).toEqual(['notifications/progress', undefined]);
    expect(streamed[1]).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'done' }] } });
  });
});
