// The inspector's server without a browser (app.request): its API refuses calls from elsewhere; it offers every
// operation and method of a version; it checks bodies as the page types them; it sends a request and checks each
// answer and stream item (a broken stream is caught, with the item, the pointer and the rule); and the session it
// saves is what `agentproto validate` accepts, item for item.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import { createInspector } from '@agentproto/cli/inspector';
import { resolveBinding } from '@agentproto/conformance';
import type { ProtocolBinding, Surface } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';
import { ItemLabels } from '../../packages/cli/src/commands/inspect/stream-items.js';
import { REFERENCE_AGENTS } from '../support/reference-agents.js';
import { runCollected } from '../support/run-cli.js';
import { list, prop, record, stringAt } from '../support/typed.js';

const HEADERS = { 'x-agentproto-inspector': '1', 'content-type': 'application/json', host: '127.0.0.1:7000' };
type Line = {
  exchange?: number;
  error?: string;
  record?: { direction: string; type?: string; message?: unknown };
  issues?: Array<{ pointer: string; message: string; rule: string }>;
  label?: string[];
  answer?: {
    items: number;
    complete: boolean;
    assembled: string;
    note: string;
    kinds: Array<{ label: string; count: number; last: unknown }>;
  };
};

/** The operations `/api/info` lists, each read field by field (a field of the wrong type fails the test). */
async function operationsOf(info: Response) {
  return list(prop(await info.json(), 'operations'), 'the operations').map((o) => {
    const bodyType = prop(o, 'bodyType');
    return {
      id: stringAt(o, 'id'),
      discovery: prop(o, 'discovery'),
      streams: prop(o, 'streams'),
      example: prop(o, 'example'),
      bodyType: typeof bodyType === 'string' ? bodyType : undefined,
    };
  });
}

async function inspector(protocol: string, fetch: (r: Request) => Response | Promise<Response>) {
  const { app } = await createInspector({
    binding: await resolveBinding(protocol),
    fetch: async (r) => fetch(r),
  });
  const call = (p: string, init: RequestInit = {}) =>
    app.request(p, { ...init, headers: { ...HEADERS, ...(init.headers ?? {}) } });
  const send = async (body: unknown): Promise<Line[]> => {
    const r = await call('/api/send', { method: 'POST', body: JSON.stringify(body) });
    return (
      (await r.text())
        .trim()
        .split('\n')
        // sound: each line of /api/send is one the inspector wrote as a Line (its exchange, error, record, issues);
        // the tests read those fields and check them.
        .map((l) => JSON.parse(l) as Line)
    );
  };
  return { app, call, send };
}

/** An AgentScope 1.1 agent whose stream repeats the sequence number of its second item. */
function repeatsSequence() {
  const agent = scopeAgent('1.1');
  return async (r: Request) => {
    const res = await agent.fetch(r);
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return res;
    const text = (await res.text()).replace('"sequence_number":1,', '"sequence_number":0,');
    return new Response(text, { status: res.status, headers: res.headers });
  };
}

describe('inspector > API', () => {
  it('guard > a call without the inspector header, or for another host, is refused (403)', async () => {
    const { app } = await inspector('fixie', (r) => new Response(r.url));
    expect((await app.request('/api/info')).status).toBe(403);
    expect(
      (await app.request('/api/info', { headers: { ...HEADERS, host: 'evil.example:7000' } })).status,
    ).toBe(403);
    expect((await app.request('/api/info', { headers: HEADERS })).status).toBe(200);
    expect((await app.request('/')).status).toBe(200);
    // The page's stylesheets: its own, and the one it shares with the docs site.
    expect(await (await app.request('/assets/base.css')).text()).toContain('--accent');
    expect((await app.request('/assets/inspector.css')).status).toBe(200);
  });

  it('info > every operation of the surface and every JSON-RPC method, with discovery and example bodies', async () => {
    const { call } = await inspector('a2a', () => new Response(null, { status: 404 }));
    const operations = await operationsOf(await call('/api/info'));
    const ids = operations.map((o) => o.id);
    expect(ids).toContain('getAgentCard');
    expect(ids).toContain('rpc:SendStreamingMessage');
    expect(operations.find((o) => o.id === 'getAgentCard')?.discovery).toBe(true);
    expect(operations.find((o) => o.id === 'rpc:SendStreamingMessage')).toMatchObject({
      streams: true,
      example: { message: {} },
    });
  });

  it('check > a body as the page types it: valid, or each issue with its pointer and keyword', async () => {
    const { call } = await inspector('agentscope@1.1', () => new Response(null));
    const check = async (text: string) =>
      record(
        await (
          await call('/api/check', { method: 'POST', body: JSON.stringify({ type: 'AgentRequest', text }) })
        ).json(),
      );
    expect((await check('{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}')).valid).toBe(
      true,
    );
    const bad = await check('{"input":"hi"}');
    expect(bad.valid).toBe(false);
    expect(list(bad.issues)[0]).toMatchObject({ pointer: '/input', rule: 'type' });
    expect(prop(list((await check('{"input":')).issues)[0], 'rule')).toBe('json');
  });

  it('send > a stream: request, answer, each item valid, closed by the agent', async () => {
    const { send } = await inspector('agentscope@1.1', scopeAgent('1.1').fetch);
    const lines = await send({
      operation: 'process',
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    });
    const directions = lines.flatMap((l) => (l.record ? [l.record.direction] : []));
    expect(directions[0]).toBe('request');
    expect(directions.filter((d) => d === 'event').length).toBeGreaterThan(3);
    expect(lines.findLast((l) => l.record)?.record).toMatchObject({ direction: 'end', complete: true });
    expect(lines.flatMap((l) => l.issues ?? [])).toEqual([]);
  });

  it('send > JSON-RPC: a method answered with its result, a streamed method item by item, both valid', async () => {
    const reference = REFERENCE_AGENTS.find(([n]) => n === 'a2a')?.[1].app();
    if (!reference) throw new Error('no A2A reference agent');
    const { call, send } = await inspector('a2a', (r) => reference.fetch(r));
    const example = (await operationsOf(await call('/api/info'))).find(
      (o) => o.id === 'rpc:SendMessage',
    )?.example;
    const once = await send({ operation: 'rpc:SendMessage', body: JSON.stringify(example) });
    expect(once.flatMap((l) => (l.record ? [l.record.direction] : []))).toEqual(['request', 'response']);
    expect(once[2]?.record).toMatchObject({ type: 'SendMessageResponse' });
    const streamed = await send({ operation: 'rpc:SendStreamingMessage', body: JSON.stringify(example) });
    const directions = streamed.flatMap((l) => (l.record ? [l.record.direction] : []));
    expect(directions.filter((d) => d === 'event').length).toBeGreaterThan(0);
    expect(streamed.findLast((l) => l.record)?.record).toMatchObject({ direction: 'end', complete: true });
    expect([...once, ...streamed].flatMap((l) => l.issues ?? [])).toEqual([]);
    expect([...once, ...streamed].filter((l) => l.error)).toEqual([]);
  });

  it('send > each stream item labelled by the variant of its type it is (A2A over JSON-RPC: the member present)', async () => {
    const reference = REFERENCE_AGENTS.find(([n]) => n === 'a2a')?.[1].app();
    if (!reference) throw new Error('no A2A reference agent');
    const { send } = await inspector('a2a', (r) => reference.fetch(r));
    const message = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } };
    for (const operation of ['rpc:SendStreamingMessage', 'sendStreamingMessage']) {
      const lines = await send({ operation, body: JSON.stringify(message) });
      const events = lines.filter((l) => l.record?.direction === 'event');
      expect(events.length, operation).toBeGreaterThan(1);
      // Each label names the one member of StreamResponse the item carries (the JSON-RPC result's, for a method).
      for (const e of events) {
        const item = operation.startsWith('rpc:') ? prop(e.record?.message, 'result') : e.record?.message;
        expect(e.label, operation).toEqual([Object.keys(record(item))[0]]);
      }
      expect(events[0]?.label).toEqual(['task']);
      expect(events.at(-1)?.label).toEqual(['statusUpdate']);
    }
  });

  it('send > nested unions labelled down to the type (AgentScope 1.1 StreamFrame › StreamEvent › …)', async () => {
    const { send } = await inspector('agentscope@1.1', scopeAgent('1.1').fetch);
    const lines = await send({
      operation: 'process',
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    });
    const labels = lines.filter((l) => l.record?.direction === 'event').map((l) => l.label?.join(' › '));
    expect(labels[0]).toBe('StreamEvent › AgentResponse');
    expect(labels).toContain('StreamEvent › Message');
    expect(labels).toContain('StreamEvent › Content › TextContent');
    expect(labels.at(-1)).toBe('StreamEvent › AgentResponse');
  });

  it('send > a stream ends with its answer: every item counted, the last of each kind, the last item last', async () => {
    const { send } = await inspector('agentscope@1.1', scopeAgent('1.1').fetch);
    const lines = await send({
      operation: 'process',
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    });
    const events = lines.filter((l) => l.record?.direction === 'event');
    const answer = lines.at(-1)?.answer;
    if (!answer) throw new Error(`no answer after the stream: ${JSON.stringify(lines.at(-1))}`);
    expect(lines.at(-2)?.record).toMatchObject({ direction: 'end', complete: true });
    expect(answer).toMatchObject({ items: events.length, complete: true, assembled: 'last-of-each-kind' });
    expect(answer.note).toMatch(/no assembler/);
    expect(answer.kinds.reduce((n, k) => n + k.count, 0)).toBe(events.length);
    expect(answer.kinds.at(-1)).toMatchObject({
      label: 'StreamEvent › AgentResponse',
      last: events.at(-1)?.record?.message,
    });
    expect(answer.kinds.find((k) => k.label === 'StreamEvent › Message')?.last).toEqual(
      events.findLast((e) => e.label?.join(' › ') === 'StreamEvent › Message')?.record?.message,
    );
    // The answer is the page's: the saved session keeps the messages only.
    expect(lines.filter((l) => l.answer)).toHaveLength(1);
  });

  it('send > a broken stream: the item, the pointer and the stream rule', async () => {
    const { send } = await inspector('agentscope@1.1', repeatsSequence());
    const lines = await send({
      operation: 'process',
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    });
    const issues = lines.flatMap((l) => l.issues ?? []);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ pointer: '/sequence_number' });
    expect(issues[0]?.rule).not.toBe('');
  });

  it('send > a form body (an artifact upload): file fields sent as files, the answer checked', async () => {
    const agent = REFERENCE_AGENTS.find(([n]) => n === 'agent-protocol v1')?.[1].app();
    if (!agent) throw new Error('no Agent Protocol reference agent');
    const { send } = await inspector('agent-protocol@v1', (r) => agent.fetch(r));
    const created = await send({ operation: 'createAgentTask', body: '{"input":"hi"}' });
    const task = {
      task_id: stringAt(created.find((l) => l.record?.direction === 'response')?.record?.message, 'task_id'),
    };
    const uploaded = await send({
      operation: 'uploadAgentTaskArtifacts',
      path: { task_id: task.task_id },
      body: JSON.stringify({ file: 'print(1)', relative_path: 'code' }),
    });
    expect(uploaded.find((l) => l.record?.direction === 'response')?.record).toMatchObject({
      status: 200,
      type: 'Artifact',
    });
    expect(uploaded.flatMap((l) => l.issues ?? [])).toEqual([]);
  });

  it('send > the headers given on the command line go with every request', async () => {
    const seen: Array<string | null> = [];
    const { app } = await createInspector({
      binding: await resolveBinding('agentscope@1.1'),
      headers: { authorization: 'Bearer t0ken' },
      fetch: async (r) => {
        seen.push(r.headers.get('authorization'));
        return scopeAgent('1.1').fetch(r);
      },
    });
    await app.request('/api/send', {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ operation: 'getHealth' }),
    });
    expect(seen).toEqual(['Bearer t0ken']);
  });

  it('send > an answer of an undeclared status is flagged; a bad request is refused with a reason (400)', async () => {
    const { send, call } = await inspector(
      'agentscope@1.1',
      () => new Response('{}', { status: 418, headers: { 'content-type': 'application/json' } }),
    );
    const lines = await send({ operation: 'getHealth' });
    expect(lines.flatMap((l) => l.issues ?? []).map((i) => i.rule)).toContain('declared-status');
    const refused = await call('/api/send', { method: 'POST', body: JSON.stringify({ operation: 'nope' }) });
    expect((await refused.text()).trim().split('\n').at(-1)).toBe('{"error":"no operation nope"}');
    expect((await call('/api/target', { method: 'POST', body: '{"url":"file:///etc"}' })).status).toBe(400);
  });
});

describe('inspector > limits', () => {
  it('session > past its record limit, records are shown but not kept, and the page is told how many', async () => {
    const { app } = await createInspector({
      binding: await resolveBinding('agentscope@1.1'),
      fetch: async (r) => scopeAgent('1.1').fetch(r),
      maxRecords: 3,
    });
    const headers = HEADERS;
    const sent = await app.request('/api/send', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        operation: 'process',
        body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
      }),
    });
    const shown = (await sent.text())
      .trim()
      .split('\n')
      .filter((l) => l.includes('"record"')).length;
    expect(shown).toBeGreaterThan(3);
    const info: unknown = await (await app.request('/api/info', { headers })).json();
    expect(info).toMatchObject({ records: 3, dropped: shown - 3 });
    const saved = (await (await app.request('/api/session', { headers })).text()).trim().split('\n');
    expect(saved.length).toBe(4);
  });
});

describe('inspector > command', () => {
  const cases: Array<[string, { given: string[]; want: RegExp }]> = [
    [
      'a URL that is not http',
      { given: ['inspect', 'ftp://x', '--protocol', 'fixie'], want: /the agent's URL must be http/ },
    ],
    [
      'a port out of range',
      { given: ['inspect', '--protocol', 'fixie', '--port', '70000'], want: /--port must be a port number/ },
    ],
    ['an unknown protocol', { given: ['inspect', '--protocol', 'nope'], want: /unknown protocol "nope"/ }],
    [
      'a header without a name',
      {
        given: ['inspect', '--protocol', 'fixie', '--header', 'no colon'],
        want: /--header no colon: give it as "Name: value"/,
      },
    ],
  ];
  for (const [name, { given, want }] of cases) {
    it(`usage > ${name}: exit 2 with the reason, nothing served`, async () => {
      const r = await runCollected(given);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(want);
    });
  }
});

describe('inspector > sessions', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-inspector-'));
  for (const [name, ref] of REFERENCE_AGENTS.filter(
    ([n]) => !n.includes('never asks') && !n.includes('code-shot'),
  )) {
    it(`saved > ${name}: every discovery call and the ready request, as NDJSON that validate accepts`, async () => {
      const agent = ref.app();
      const { call, send } = await inspector(ref.protocol, (r) => agent.fetch(r));
      const operations = await operationsOf(await call('/api/info'));
      for (const op of operations.filter((o) => o.discovery)) await send({ operation: op.id });
      const ready = operations.filter((o) => o.example !== undefined && o.bodyType && !o.id.includes(':'));
      const op = ready.find((o) => o.streams) ?? ready[0];
      if (op) await send({ operation: op.id, body: JSON.stringify(op.example), path: { agent: 'echo' } });
      const session = await (await call('/api/session')).text();
      const lines = session.trim().split('\n');
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
        agentprotoSession: 1,
        protocol: ref.protocol.split('@')[0],
      });
      expect(lines.length).toBeGreaterThan(2);
      // A ready request answered with a stream shows its items, each a record of its own (an operation that may
      // stream, as MCP's one endpoint, may also answer with JSON).
      if (op?.streams && lines.some((l) => l.includes('"stream":true')))
        expect(lines.filter((l) => l.includes('"direction":"event"')).length).toBeGreaterThan(0);
      const file = path.join(tmp, `${name.replace(/\W+/g, '-')}.session.ndjson`);
      writeFileSync(file, session);
      const r = await runCollected(['validate', file, '--protocol', ref.protocol]);
      expect(r.out, r.out).toMatch(/^0 of \d+ items invalid in 1 file/m);
      expect(r.code).toBe(0);
    });
  }

  it('tampered > a session whose stream item was changed fails validate, at the line, with the pointer', async () => {
    const { call, send } = await inspector('agentscope@1.1', scopeAgent('1.1').fetch);
    await send({
      operation: 'process',
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    });
    const lines = (await (await call('/api/session')).text()).trim().split('\n');
    const at = lines.findIndex((l) => l.includes('"direction":"event"'));
    lines[at] = (lines[at] ?? '').replace('"sequence_number":', '"sequence_number":"x","was":');
    const file = path.join(tmp, 'tampered.session.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCollected(['validate', file, '--protocol', 'agentscope@1.1']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${file}:${at + 1}: event ${at + 1}: /message/sequence_number: must be integer`);
  });
});

describe('inspector > item labels', () => {
  const id = (t: string) => `https://agentproto.dev/schemas/made-up/1/${t}.schema.json`;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  const binding: ProtocolBinding = {
    protocol: 'made-up',
    version: '1',
    title: 'Made up',
    package: '@agentproto/made-up',
    validators: {
      Ping: (v: unknown): v is unknown => isObject(v) && v.kind === 'ping',
      Pong: (v: unknown): v is unknown => isObject(v) && v.kind === 'pong',
      ByRef: (v: unknown): v is unknown => isObject(v) && (v.kind === 'ping' || v.kind === 'pong'),
    },
  };
  const surface: Surface = {
    operations: [],
    examples: {},
    schemas: [
      { $id: id('ByRef'), anyOf: [{ $ref: id('Ping') }, { $ref: id('Pong') }] },
      {
        $id: id('ByMapping'),
        oneOf: [{ $ref: 'Ping.schema.json' }, { $ref: 'Pong.schema.json' }],
        discriminator: {
          propertyName: 'kind',
          mapping: { ping: 'Ping.schema.json', pong: 'Pong.schema.json' },
        },
      },
      {
        $id: id('ByMember'),
        oneOf: [
          { required: ['task'] },
          { properties: { status: { const: 'done' } } },
          { title: 'both', required: ['a', 'b'] },
        ],
      },
      { $id: id('Nested'), anyOf: [{ $ref: 'ByRef.schema.json' }, { $ref: 'ByMember.schema.json' }] },
      { $id: id('Plain'), type: 'object' },
    ],
  };
  const labels = new ItemLabels(binding, surface);
  const cases: Array<[string, { type: string; item: unknown; want: string[] }]> = [
    [
      'a variant by reference: the one whose validator accepts it',
      { type: 'ByRef', item: { kind: 'pong' }, want: ['Pong'] },
    ],
    ['a discriminator mapping names it', { type: 'ByMapping', item: { kind: 'ping' }, want: ['Ping'] }],
    ['an inline variant: its required member', { type: 'ByMember', item: { task: {} }, want: ['task'] }],
    ['an inline variant: its const', { type: 'ByMember', item: { status: 'done' }, want: ['status="done"'] }],
    ['an inline variant: its title', { type: 'ByMember', item: { a: 1, b: 2 }, want: ['both'] }],
    ['nested unions, down the chain', { type: 'Nested', item: { kind: 'ping' }, want: ['ByRef', 'Ping'] }],
    ['no variant fits: no label', { type: 'ByRef', item: { kind: 'other' }, want: [] }],
    ['a type that is no union: no label', { type: 'Plain', item: {}, want: [] }],
    ['an unknown type: no label', { type: 'Nope', item: {}, want: [] }],
  ];
  for (const [name, { type, item, want }] of cases)
    it(`label > ${name}`, () => {
      expect(labels.label(type, item)).toEqual(want);
    });
});
