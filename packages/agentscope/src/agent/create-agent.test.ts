import { parseFrames, readFrames, type Validator } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { chunksOf, list, messageOf, prop, record } from '../../../../test/support/typed.js';
import { GENERATED } from '../generated/modules.js';
import { createReferenceAgent } from '../reference-agent/index.js';
import type { AgentOutput } from '../stream/response-stream.js';
import { checkStream } from '../stream/stream-rules.js';
import { createAgentScopeApp } from './create-agent.js';

// The role of a function's output: 1.1 has a `tool` role, 0.1 knows only assistant, user and system.
const FUNCTION_OUTPUT_ROLE = { '0.1': 'assistant', '1.1': 'tool' } as const;

const userSays = (text: string) => ({
  input: [{ role: 'user', type: 'message', content: [{ type: 'text', text }] }],
  session_id: 'session_test',
});

function post(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  body: string,
  type = 'application/json',
) {
  return app.request('/process', { method: 'POST', headers: { 'content-type': type }, body });
}

async function events(response: Response): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const frame of parseFrames(readFrames(chunksOf(response.body), 'sse'))) {
    if (!frame.ok) throw new Error(frame.error);
    out.push(record(frame.value));
  }
  return out;
}

/** An agent whose output the test decides. */
function agentOf(version: '0.1' | '1.1', run: () => AsyncIterable<AgentOutput>, errors: unknown[] = []) {
  return createAgentScopeApp(version, { run, onError: (e: unknown) => errors.push(e) });
}

describe.each(['0.1', '1.1'] as const)('agentscope %s > stream: false', (version) => {
  const ask = (stream: boolean | undefined, accept: string | undefined) =>
    createReferenceAgent(version).request('/process', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
      body: JSON.stringify({ ...userSays('hello there'), ...(stream === undefined ? {} : { stream }) }),
    });
  const cases: Array<[string, { stream?: boolean; accept?: string; want: string }]> = [
    [
      'false, Accept application/json > the terminal response as JSON',
      { stream: false, accept: 'application/json', want: 'application/json' },
    ],
    [
      'false, Accept with a quality > JSON',
      { stream: false, accept: 'application/json;q=0.9', want: 'application/json' },
    ],
    [
      'false, Accept */* (what upstream clients send) > the stream, as upstream',
      { stream: false, accept: '*/*', want: 'text/event-stream' },
    ],
    ['false, no Accept > the stream, as upstream', { stream: false, want: 'text/event-stream' }],
    [
      'false, Accept naming both > the stream',
      { stream: false, accept: 'text/event-stream, application/json', want: 'text/event-stream' },
    ],
    ['true, Accept */* > the stream', { stream: true, accept: '*/*', want: 'text/event-stream' }],
    ['absent > the stream', { want: 'text/event-stream' }],
  ];
  it.each(cases)('%s', async (_name, { stream, accept, want }) => {
    const res = await ask(stream, accept);
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
      status: 200,
      type: want,
    });
    if (want !== 'application/json') return;
    // The same object the stream ends with: the response, completed, its output the completed message.
    const body: unknown = await res.json();
    const streamed = await events(await ask(true, undefined));
    expect(body).toMatchObject({ object: 'response', status: 'completed' });
    // Ids are made up per run; what was said is the same.
    const said = (output: unknown) =>
      list(output).map((m) => {
        const content = prop(m, 'content');
        return [
          prop(m, 'role'),
          content === undefined ? undefined : list(content).map((c) => [prop(c, 'type'), prop(c, 'text')]),
        ];
      });
    expect(said(prop(body, 'output'))).toEqual(said(prop(streamed.at(-1), 'output')));
    expect(said(prop(body, 'output')).length).toBeGreaterThan(0);
  });
});

describe.each(['0.1', '1.1'] as const)('agentscope %s > app', (version) => {
  it('process > 200 text/event-stream, one data: frame per event, and a stream that keeps every rule', async () => {
    const res = await post(createReferenceAgent(version), JSON.stringify(userSays('hello there')));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const text = await res.clone().text();
    expect(
      text
        .split('\n\n')
        .filter(Boolean)
        .every((f) => f.startsWith('data: {')),
    ).toBe(true);
    const stream = await events(res);
    expect(checkStream(version, stream)).toEqual([]);
    expect(stream.at(-1)).toMatchObject({
      object: 'response',
      status: 'completed',
      session_id: 'session_test',
    });
    const deltas = stream.filter((e) => e.delta === true).map((e) => e.text);
    expect(deltas.join('')).toBe('You said: hello there');
  });

  const refusals: Array<[string, { body: string; type?: string; status: number; problem: string }]> = [
    ['400 > the body is not JSON', { body: '{"input": [', status: 400, problem: 'malformed-json' }],
    [
      '415 > the body is not JSON at all',
      { body: 'input=hi', type: 'text/plain', status: 415, problem: 'unsupported-media-type' },
    ],
    ['422 > input is missing', { body: '{"session_id": "s"}', status: 422, problem: 'invalid-body' }],
    [
      '422 > n is out of range',
      { body: JSON.stringify({ ...userSays('hi'), n: 9 }), status: 422, problem: 'invalid-body' },
    ],
  ];
  it.each(refusals)('refusal > %s, as a problem, before any event', async (_, c) => {
    const res = await post(createReferenceAgent(version), c.body, c.type);
    expect(res.status).toBe(c.status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(prop(await res.json(), 'type')).toMatch(new RegExp(`/${c.problem}$`));
  });

  it('health and root > answer with their schemas', async () => {
    const app = createReferenceAgent(version);
    const health = await app.request('/health');
    expect(health.status).toBe(200);
    const validators: Readonly<Record<string, Validator>> = GENERATED[version].validators;
    expect(validators.HealthStatus?.(await health.json())).toBe(true);
    const root = await app.request('/');
    expect(validators.ServiceInfo?.(await root.json())).toBe(true);
  });

  it('output > data, a function call and its output each become a whole message', async () => {
    const app = agentOf(version, async function* () {
      yield { type: 'text', delta: 'Looking it up.' };
      yield { type: 'function_call', name: 'get_weather', arguments: { city: 'Oslo' }, call_id: 'call_7' };
      yield { type: 'function_call_output', call_id: 'call_7', output: { temp_c: -3 } };
      yield { type: 'data', data: { temp_c: -3 } };
    });
    const stream = await events(await post(app, JSON.stringify(userSays('weather?'))));
    expect(checkStream(version, stream)).toEqual([]);
    // sound: checkStream passed the stream just above: every event validates against its schema, and the last is
    // the completed response, whose output is messages with their content.
    const final = stream.at(-1) as {
      output: Array<{ type: string; role: string; content: Array<{ data?: unknown; text?: unknown }> }>;
    };
    expect(final.output.map((m) => m.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(final.output[1]?.content[0]?.data).toEqual({
      call_id: 'call_7',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(final.output[2]?.role).toBe(FUNCTION_OUTPUT_ROLE[version]);
    expect(final.output[2]?.content[0]?.data).toMatchObject({ call_id: 'call_7', output: '{"temp_c":-3}' });
  });

  it('output > an image, a message of several parts, and usage', async () => {
    const errors: unknown[] = [];
    const app = agentOf(
      version,
      async function* () {
        yield { type: 'text', delta: 'Here ' };
        // Usage arriving mid-answer does not cut the text message.
        yield { type: 'usage', usage: { input_tokens: 3, output_tokens: 9 } };
        yield { type: 'text', delta: 'it is.' };
        yield { type: 'image', image_url: 'https://example.com/cat.png' };
        yield {
          type: 'message',
          parts: [
            { type: 'text', text: 'A cat,' },
            { type: 'image', image_url: 'https://example.com/cat-2.png' },
            { type: 'data', data: { cats: 2 } },
          ],
        };
      },
      errors,
    );
    const stream = await events(await post(app, JSON.stringify(userSays('a cat please'))));
    expect(checkStream(version, stream)).toEqual([]);
    expect(errors).toEqual([]);
    type Part = { type: string; index: number; text?: string; image_url?: string };
    // sound: checkStream passed the stream above: every event validates against its schema, and the last is the
    // completed response, with its usage and its messages' content parts.
    const final = stream.at(-1) as { status: string; usage: unknown; output: Array<{ content: Part[] }> };
    expect(final.status).toBe('completed');
    expect(final.usage).toEqual({ input_tokens: 3, output_tokens: 9 });
    expect(final.output.map((m) => m.content.map((c) => [c.index, c.type]))).toEqual([
      [[0, 'text']],
      [[0, 'image']],
      [
        [0, 'text'],
        [1, 'image'],
        [2, 'data'],
      ],
    ]);
    expect(final.output[0]?.content[0]?.text).toBe('Here it is.');
  });

  it.each(['canceled', 'rejected'] as const)('end > the response ends %s, with its error', async (status) => {
    const app = agentOf(version, async function* () {
      yield { type: 'text', delta: 'Starting' };
      yield { type: 'end', status, error: { code: 'STOPPED', message: `the agent says ${status}` } };
      yield { type: 'text', delta: 'never sent' };
    });
    const stream = await events(await post(app, JSON.stringify(userSays('go'))));
    expect(checkStream(version, stream)).toEqual([]);
    expect(stream.at(-1)).toMatchObject({
      object: 'response',
      status,
      error: { code: 'STOPPED', message: `the agent says ${status}` },
    });
    expect(JSON.stringify(stream)).not.toContain('never sent');
  });

  it('failure > a reported error ends the response failed with it', async () => {
    const stream = await events(await post(createReferenceAgent(version), JSON.stringify(userSays('fail'))));
    expect(checkStream(version, stream)).toEqual([]);
    expect(stream.at(-1)).toMatchObject({
      status: 'failed',
      error: { code: 'AGENT_ERROR', message: 'asked to fail' },
    });
  });

  it('failure > a thrown error ends the response failed, without leaking it', async () => {
    const errors: unknown[] = [];
    const app = agentOf(
      version,
      async function* () {
        yield { type: 'text', delta: 'partial' };
        throw new Error('database password is hunter2');
      },
      errors,
    );
    const res = await post(app, JSON.stringify(userSays('hi')));
    const text = await res.clone().text();
    expect(text).not.toContain('hunter2');
    const stream = await events(res);
    expect(checkStream(version, stream)).toEqual([]);
    expect(stream.at(-1)).toMatchObject({ status: 'failed', error: { code: 'AGENT_UNKNOWN_ERROR' } });
    expect(errors).toHaveLength(1);
  });
});

describe('agentscope > versions differ on the wire', () => {
  it('sequence numbers > integers in 1.1, decimal strings in 0.1', async () => {
    const [a, b] = await Promise.all(
      (['1.1', '0.1'] as const).map(async (v) =>
        events(await post(createReferenceAgent(v), JSON.stringify(userSays('x')))),
      ),
    );
    expect(a?.map((e) => e.sequence_number).slice(0, 3)).toEqual([0, 1, 2]);
    expect(b?.map((e) => e.sequence_number).slice(0, 3)).toEqual(['0', '1', '2']);
  });

  it('request > 1.1 passes unknown keys through; 0.1 refuses them', async () => {
    const body = JSON.stringify({ ...userSays('x'), enable_thinking: true });
    expect((await post(createReferenceAgent('1.1'), body)).status).toBe(200);
    expect((await post(createReferenceAgent('0.1'), body)).status).toBe(422);
  });
});

describe('agentscope > an event that breaks the schemas (response validation on)', () => {
  // A data part must be an object: the agent's message breaks the content schema at /data.
  async function* flatData(): AsyncIterable<AgentOutput> {
    yield { type: 'text', delta: 'hi' };
    yield { type: 'message', parts: [{ type: 'data', data: 'flat' }] };
  }
  const cases: Array<[string, { version: '0.1' | '1.1'; want: { last: unknown; told: string[] } }]> = [
    [
      '1.1 > the stream ends with an ErrorFrame, and the fault is told once for two requests',
      {
        version: '1.1',
        want: {
          last: { error: 'process stream item 8 → StreamFrame: /data: must be object or null (got "flat")' },
          told: ['process stream item 8 → StreamFrame: /data: must be object or null (got "flat")'],
        },
      },
    ],
    [
      '0.1 (no error frame) > the stream ends at the last good event, and the fault is told once',
      {
        version: '0.1',
        want: {
          last: expect.objectContaining({ object: 'message', status: 'in_progress' }),
          told: [expect.stringMatching(/^process stream item 8 → StreamEvent: \/data: must be object/)],
        },
      },
    ],
  ];
  it.each(cases)('%s', async (_, { version, want }) => {
    const told: unknown[] = [];
    const app = createAgentScopeApp(version, {
      run: flatData,
      onError: (e) => told.push(e),
      app: { validateResponses: true },
    });
    for (const _ of [1, 2]) {
      const got = await events(await post(app, JSON.stringify(userSays('hi'))));
      expect(got.at(-1)).toEqual(want.last);
    }
    expect(told.map(messageOf)).toEqual(want.told);
  });
});
