import { Ajv } from 'ajv';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isRecord, numberAt, prop } from '../../../test/support/typed.js';
import { DEFAULT_LIMITS } from './limits.js';
import { createOperationApp, type HandlerResult, type OperationSpec } from './operation-app.js';
import type { Validator } from './validation.js';

const anything: Validator = (_value: unknown): _value is unknown => true;

const specs: OperationSpec[] = [
  {
    operationId: 'echo',
    method: 'POST',
    path: '/echo',
    pathParams: anything,
    query: anything,
    body: {
      required: true,
      contents: [
        { mediaType: 'application/json', kind: 'json', validate: anything },
        { mediaType: 'application/yaml', kind: 'yaml', validate: anything },
        { mediaType: 'multipart/form-data', kind: 'form', validate: anything },
        { mediaType: 'application/x-www-form-urlencoded', kind: 'form', validate: anything },
        { mediaType: 'application/octet-stream', kind: 'binary' },
      ],
    },
    responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
  },
  {
    operationId: 'answer',
    method: 'GET',
    path: '/answer',
    pathParams: anything,
    query: anything,
    responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
  },
];

function app(answer: () => HandlerResult = () => ({ status: 200, body: { ok: true } }), limits = {}) {
  return createOperationApp(
    specs,
    {
      echo: ({ body }) => ({
        status: 200,
        body: {
          type: body instanceof Uint8Array ? 'bytes' : typeof body,
          size: JSON.stringify(body)?.length,
        },
      }),
      answer,
    },
    { limits, onError: () => {} },
  );
}

/** Objects nested `depth` deep (the outermost is depth 1). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A body of `chunks` chunks of 64 KiB, made only as they are read; counts how many were. */
function lazyBody(chunks: number) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled++ >= chunks) controller.close();
      else controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
    },
  });
  return { stream, seen };
}

function post(body: BodyInit, contentType: string, headers: Record<string, string> = {}) {
  // Node's fetch wants `duplex` for a streamed body, which the DOM's RequestInit does not know yet.
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    body,
    headers: { 'content-type': contentType, ...headers },
    duplex: 'half',
  };
  return new Request('http://agent.test/echo', init);
}

function multipart(parts: number): { body: string; type: string } {
  const boundary = 'b0undary';
  let body = '';
  for (let i = 0; i < parts; i++)
    body += `--${boundary}\r\ncontent-disposition: form-data; name="f${i}"\r\n\r\nv\r\n`;
  return { body: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

async function answer(request: Request, limits = {}) {
  const response = await app(undefined, limits).fetch(request);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text };
}

describe('createOperationApp limits', () => {
  const cases: Array<
    [string, { given: () => Request; limits?: object; want: { status: number; kind: string } }]
  > = [
    [
      'size > declared Content-Length over the JSON limit',
      {
        given: () =>
          post('{}', 'application/json', { 'content-length': String(DEFAULT_LIMITS.jsonBytes + 1) }),
        want: { status: 413, kind: 'body-too-large' },
      },
    ],
    [
      'size > a streamed body without a length passes the limit',
      {
        given: () => post(lazyBody(100).stream, 'application/json'),
        want: { status: 413, kind: 'body-too-large' },
      },
    ],
    [
      'size > the limit is configurable',
      {
        given: () => post('{"a":"long"}', 'application/json'),
        limits: { jsonBytes: 8 },
        want: { status: 413, kind: 'body-too-large' },
      },
    ],
    [
      'size > binary bodies have their own limit',
      {
        given: () => post(new Uint8Array(64), 'application/octet-stream'),
        limits: { binaryBytes: 63 },
        want: { status: 413, kind: 'body-too-large' },
      },
    ],
    [
      'depth > one level past the limit',
      {
        given: () => post(nested(DEFAULT_LIMITS.depth + 1), 'application/json'),
        want: { status: 400, kind: 'too-deep' },
      },
    ],
    [
      'depth > 5,000 levels of arrays',
      {
        given: () => post(`${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'),
        want: { status: 400, kind: 'too-deep' },
      },
    ],
    [
      'depth > YAML nests too',
      {
        given: () => post(`${'['.repeat(200)}${']'.repeat(200)}`, 'application/yaml'),
        want: { status: 400, kind: 'too-deep' },
      },
    ],
    [
      'unicode > a lone surrogate in a value',
      {
        given: () => post('{"id":"\\ud800"}', 'application/json'),
        want: { status: 400, kind: 'invalid-unicode' },
      },
    ],
    [
      'unicode > a lone surrogate in a key',
      {
        given: () => post('{"\\udc00":1}', 'application/json'),
        want: { status: 400, kind: 'invalid-unicode' },
      },
    ],
    [
      'unicode > bytes that are not UTF-8',
      {
        given: () => post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'application/json'),
        want: { status: 400, kind: 'invalid-utf8' },
      },
    ],
    [
      'charset > latin-1 is refused',
      {
        given: () => post('{}', 'application/json; charset=iso-8859-1'),
        want: { status: 415, kind: 'unsupported-charset' },
      },
    ],
    [
      'form > more parts than the limit',
      {
        given: () => post(multipart(DEFAULT_LIMITS.formParts + 1).body, multipart(1).type),
        want: { status: 413, kind: 'too-many-parts' },
      },
    ],
    [
      'form > more URL-encoded fields than the limit',
      {
        given: () =>
          post(
            Array.from({ length: 101 }, (_, i) => `f${i}=1`).join('&'),
            'application/x-www-form-urlencoded',
          ),
        want: { status: 413, kind: 'too-many-parts' },
      },
    ],
    [
      'form > a multipart type without a boundary',
      { given: () => post('x', 'multipart/form-data'), want: { status: 400, kind: 'malformed-form' } },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, limits, want }) => {
    const got = await answer(given(), limits);
    expect(got.status).toBe(want.status);
    expect(got.type).toBe('application/problem+json');
    expect(JSON.parse(got.text).type).toBe(`https://agentproto.dev/problems/${want.kind}`);
  });

  const accepted: Array<[string, { given: () => Request }]> = [
    ['depth > exactly at the limit', { given: () => post(nested(DEFAULT_LIMITS.depth), 'application/json') }],
    ['unicode > a surrogate pair', { given: () => post('{"id":"\\ud83d\\ude00"}', 'application/json') }],
    ['charset > utf-8 named', { given: () => post('{}', 'application/json; charset=UTF-8') }],
    [
      'form > exactly the limit of parts',
      { given: () => post(multipart(DEFAULT_LIMITS.formParts).body, multipart(1).type) },
    ],
    [
      'size > exactly the limit',
      { given: () => post(`"${'x'.repeat(DEFAULT_LIMITS.jsonBytes - 2)}"`, 'application/json') },
    ],
  ];
  it.each(accepted)('%s is accepted', async (_name, { given }) => {
    expect((await answer(given())).status).toBe(200);
  });

  it('size > an unsupported media type is refused before its body is read', async () => {
    const body = lazyBody(5000); // 300 MiB if it were read
    const response = await app().fetch(post(body.stream, 'text/plain'));
    expect(response.status).toBe(415);
    expect(body.seen.pulled).toBeLessThan(3);
  });

  it('size > a streamed body is read no further than the limit', async () => {
    const body = lazyBody(5000);
    const response = await app().fetch(post(body.stream, 'application/json'));
    expect(response.status).toBe(413);
    expect(body.seen.pulled).toBeLessThan(DEFAULT_LIMITS.jsonBytes / (64 * 1024) + 3);
  });

  it('limits > a limit that is not a positive whole number is refused at start', () => {
    expect(() => app(undefined, { depth: 0 })).toThrow(/limits.depth/);
  });
});

describe('createOperationApp answers', () => {
  it('answer > a value too deep to serialize becomes a problem 500', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const response = await app(() => ({ status: 200, body: deep })).fetch(
      new Request('http://agent.test/answer'),
    );
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it.each([
    ['a non-Latin-1 character', { 'content-disposition': 'attachment; filename="日本語.txt"' }],
    ['a line break', { 'x-name': 'a\r\nset-cookie: b' }],
    ['a NUL', { 'x-name': 'a\u0000b' }],
    ['a bad name', { 'bad name': 'x' }],
  ])('answer > a header with %s becomes a problem 500, not the adapter’s', async (_name, headers) => {
    const response = await app(() => ({ status: 200, body: { ok: true }, headers })).fetch(
      new Request('http://agent.test/answer'),
    );
    expect(response.status).toBe(500);
    expect(JSON.parse(await response.text()).type).toBe('https://agentproto.dev/problems/invalid-response');
  });

  it('answer > Accept picks among the media types that fit the body, so a JSON answer stays JSON', async () => {
    const both: OperationSpec = {
      operationId: 'events',
      method: 'GET',
      path: '/events',
      pathParams: anything,
      query: anything,
      responses: {
        '200': [
          { mediaType: 'application/json', kind: 'json' },
          { mediaType: 'text/event-stream', kind: 'stream', framing: 'sse' },
        ],
      },
    };
    async function* items() {
      yield { n: 1 };
    }
    const served = createOperationApp(
      [both],
      { events: ({ query }) => ({ status: 200, body: prop(query, 's') ? items() : [{ n: 1 }] }) },
      { onError: () => {} },
    );
    const sse = { accept: 'text/event-stream' };
    const value = await served.fetch(new Request('http://agent.test/events', { headers: sse }));
    expect(value.status).toBe(200);
    expect(value.headers.get('content-type')).toBe('application/json');
    const stream = await served.fetch(new Request('http://agent.test/events?s=1', { headers: sse }));
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(await stream.text()).toBe('data: {"n":1}\n\n');
  });

  it('answer > an error thrown by a middleware is a problem, not plain text', async () => {
    const base = new Hono();
    base.use('*', async () => {
      throw new Error('middleware broke');
    });
    const served = createOperationApp(
      specs,
      { echo: () => ({ status: 200, body: {} }), answer: () => ({ status: 200, body: {} }) },
      { app: base, onError: () => {} },
    );
    const response = await served.fetch(new Request('http://agent.test/answer'));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.text()).not.toContain('middleware broke');
  });

  it('routing > unknown methods on a known path answer 405 with Allow, unknown paths 404, HEAD follows GET', async () => {
    const served = app();
    const wrong = await served.fetch(new Request('http://agent.test/echo', { method: 'DELETE' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('content-type')).toBe('application/problem+json');
    const missing = await served.fetch(new Request('http://agent.test/nowhere'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404 });
    const head = await served.fetch(new Request('http://agent.test/answer', { method: 'HEAD' }));
    expect(head.status).toBe(200);
  });

  it('parameters > a validator that fills in defaults still runs without a query; one that cannot fail is skipped', async () => {
    let calls = 0;
    // Fills in `limit` when absent, as a generated query validator with a default does.
    const withDefault: Validator = Object.assign(
      (q: unknown): q is unknown => {
        calls++;
        if (isRecord(q)) q.limit ??= 10;
        return true;
      },
      { errors: null },
    );
    const counted: Validator = Object.assign(
      (_q: unknown): _q is unknown => {
        calls++;
        return true;
      },
      { errors: null },
    );
    const list = (query: Validator): OperationSpec => ({
      operationId: 'list',
      method: 'GET',
      path: '/items',
      pathParams: counted,
      query,
      responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
    });
    const echo = { list: ({ query }: { query: unknown }) => ({ status: 200, body: query }) };
    const defaults = createOperationApp([list(withDefault)], echo);
    calls = 0;
    expect(await (await defaults.fetch(new Request('http://agent.test/items'))).json()).toEqual({
      limit: 10,
    });
    // Path validator: probed once when the app was built, then skipped; query validator: run on the request.
    expect(calls).toBe(1);
    const plain = createOperationApp([list(counted)], echo);
    calls = 0;
    expect(await (await plain.fetch(new Request('http://agent.test/items'))).json()).toEqual({});
    expect(calls).toBe(0);
    expect(await (await plain.fetch(new Request('http://agent.test/items?x=1'))).json()).toEqual({ x: '1' });
    expect(calls).toBe(1);
  });
});

describe('createOperationApp booleans', () => {
  // A query validator as the generator emits one: ajv with coerceTypes, so `true`/`false` become booleans.
  const ajv = new Ajv({ coerceTypes: true, allErrors: true });
  const query = ajv.compile({
    type: 'object',
    properties: { stream: { type: 'boolean' } },
  });
  const events: OperationSpec = {
    operationId: 'events',
    method: 'GET',
    path: '/events',
    pathParams: anything,
    query,
    booleans: { query: ['stream'] },
    responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
  };
  const served = createOperationApp([events], {
    events: ({ query: q }: { query: unknown }) => ({ status: 200, body: q }),
  });
  const cases: Array<[string, { given: string; want: { status: number; stream?: boolean } }]> = [
    ['JSON > true', { given: 'true', want: { status: 200, stream: true } }],
    ["Python's requests > True", { given: 'True', want: { status: 200, stream: true } }],
    ["Python's requests > False", { given: 'False', want: { status: 200, stream: false } }],
    ['bits > 1', { given: '1', want: { status: 200, stream: true } }],
    ['bits > 0', { given: '0', want: { status: 200, stream: false } }],
    ['anything else > TRUE is refused', { given: 'TRUE', want: { status: 400 } }],
    ['anything else > yes is refused', { given: 'yes', want: { status: 400 } }],
    ['anything else > a key of every object is refused', { given: 'constructor', want: { status: 400 } }],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const response = await served.fetch(new Request(`http://agent.test/events?stream=${given}`));
    const body: unknown = await response.json();
    expect({
      status: response.status,
      ...(response.status === 200 ? { stream: prop(body, 'stream') } : {}),
    }).toEqual(want);
  });
});

describe('createOperationApp paths', () => {
  // Google-style custom methods put literal text after a parameter in the same segment (`/tasks/{id}:cancel`).
  const route = (operationId: string, method: string, path: string): OperationSpec => ({
    operationId,
    method,
    path,
    pathParams: anything,
    query: anything,
    responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
  });
  const paths = createOperationApp(
    [
      route('get', 'GET', '/tasks/{id}'),
      route('cancel', 'POST', '/tasks/{id}:cancel'),
      route('subscribe', 'GET', '/tasks/{id}:subscribe'),
      route('file', 'GET', '/files/v-{name}.json'),
      route('send', 'POST', '/message:send'),
    ],
    Object.fromEntries(
      ['get', 'cancel', 'subscribe', 'file', 'send'].map((id) => [
        id,
        ({ params }: { params: unknown }) => ({ status: 200, body: { id, params } }),
      ]),
    ),
    { onError: () => {} },
  );
  it.each([
    [
      'custom method > the parameter is the text before the suffix',
      { given: ['POST', '/tasks/a1:cancel'], want: { id: 'cancel', params: { id: 'a1' } } },
    ],
    [
      'custom method > wins over the plain parameter route added before it',
      { given: ['GET', '/tasks/a1:subscribe'], want: { id: 'subscribe', params: { id: 'a1' } } },
    ],
    [
      'custom method > an encoded colon stays in the value',
      { given: ['POST', '/tasks/a%3Ab:cancel'], want: { id: 'cancel', params: { id: 'a:b' } } },
    ],
    [
      'plain parameter > still matches a segment without the suffix',
      { given: ['GET', '/tasks/a1'], want: { id: 'get', params: { id: 'a1' } } },
    ],
    [
      'prefix and suffix > both are stripped, dots taken literally',
      { given: ['GET', '/files/v-report.json'], want: { id: 'file', params: { name: 'report' } } },
    ],
    [
      'literal colon > a path without parameters is matched as written',
      { given: ['POST', '/message:send'], want: { id: 'send', params: {} } },
    ],
  ] as const)('%s', async (_, { given: [method, path], want }) => {
    const res = await paths.request(path, { method });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(want);
  });
  it('custom method > a segment without the literal text is not taken for it', async () => {
    expect((await paths.request('/files/report.json')).status).toBe(404);
    expect((await paths.request('/files/v-report_json')).status).toBe(404);
  });
});

describe('createOperationApp errorBody', () => {
  const refusing: Validator = (v: unknown): v is unknown => {
    refusing.errors = [
      {
        instancePath: '/a',
        keyword: 'type',
        params: { type: 'number' },
        message: 'must be number',
        schemaPath: '#',
      },
    ];
    return typeof prop(v, 'a') === 'number';
  };
  const seen: number[] = [];
  const app = createOperationApp(
    [
      {
        operationId: 'take',
        method: 'POST',
        path: '/take',
        pathParams: anything,
        query: anything,
        body: {
          required: true,
          contents: [{ mediaType: 'application/json', kind: 'json', validate: refusing }],
        },
        responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
      },
    ],
    {
      take: ({ body }) => {
        if (numberAt(body, 'a') < 0) throw new Error('negative');
        return { status: 200, body: { ok: true } };
      },
    },
    {
      onError: () => {},
      errorBody: (p) => {
        seen.push(p.status);
        return {
          status: p.status === 422 ? 400 : p.status,
          body: { error: { code: p.status, message: p.detail } },
        };
      },
    },
  );
  const take = (body: string) =>
    app.request('/take', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  it.each([
    ['schema > a body that breaks its schema', { given: () => take('{"a":"x"}'), want: [400, 422] }],
    ['syntax > a body that is not JSON', { given: () => take('{'), want: [400, 400] }],
    ['route > an unknown path', { given: () => app.request('/nope'), want: [404, 404] }],
    ['method > a known path with another method', { given: () => app.request('/take'), want: [405, 405] }],
    ['handler > a handler that throws', { given: () => take('{"a":-1}'), want: [500, 500] }],
  ] as const)('%s is restated by the hook', async (_, { given, want: [status, code] }) => {
    const res = await given();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ error: { code } });
  });
  it('answers > a handler answer is left alone', async () => {
    seen.length = 0;
    const res = await take('{"a":1}');
    expect(await res.json()).toEqual({ ok: true });
    expect(seen).toEqual([]);
  });
});
