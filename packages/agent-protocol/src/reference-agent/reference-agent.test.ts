// The reference agent through the generated stubs, in memory with app.request() (no port).
import { withoutPathPrefix } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { checked, illTyped, stringAt } from '../../../../test/support/typed.js';
import { createAgentProtocolApp, createAgentProtocolClient, validators } from '../generated/v1/index.js';
import { createReferenceAgent, createReferenceHandlers, STEPS_PER_TASK } from './index.js';

const BASE = '/ap/v1/agent/tasks';
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

async function newTask(app = createReferenceAgent(), input = 'write Washington') {
  const res = await app.request(BASE, json({ input }));
  return { app, taskId: stringAt(await res.json(), 'task_id') };
}

describe('reference agent > task, step and artifact flow', () => {
  it('flow > runs a task to its last step, with the agent-created artifact downloadable', async () => {
    const { app, taskId } = await newTask();
    const got = await app.request(`${BASE}/${taskId}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ task_id: taskId, input: 'write Washington', artifacts: [] });

    const steps: Array<{ step_id: string; is_last: boolean; artifacts: Array<{ artifact_id: string }> }> = [];
    for (let i = 0; i < STEPS_PER_TASK; i++) {
      const res = await app.request(`${BASE}/${taskId}/steps`, json({ input: `step ${i}` }));
      expect(res.status).toBe(200);
      steps.push(await res.json());
    }
    expect(steps.map((s) => s.is_last)).toEqual([false, false, true]);
    const stepRes = await app.request(`${BASE}/${taskId}/steps/${steps[1]?.step_id}`);
    expect(await stepRes.json()).toMatchObject({
      step_id: steps[1]?.step_id,
      task_id: taskId,
      status: 'completed',
    });

    const artifactId = steps[2]?.artifacts[0]?.artifact_id;
    const download = await app.request(`${BASE}/${taskId}/artifacts/${artifactId}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(await download.text()).toBe('write Washington');
  });

  it('flow > uploads a multipart file and lists it', async () => {
    const { app, taskId } = await newTask();
    const form = new FormData();
    form.append('file', new File(['hello bytes'], 'test_output.txt'));
    form.append('relative_path', 'inputs');
    const up = await app.request(`${BASE}/${taskId}/artifacts`, { method: 'POST', body: form });
    expect(up.status).toBe(200);
    const artifact = checked(await up.json(), validators.Artifact, 'the uploaded artifact');
    expect(artifact).toMatchObject({
      agent_created: false,
      file_name: 'test_output.txt',
      relative_path: 'inputs',
    });
    const list = await app.request(`${BASE}/${taskId}/artifacts`);
    expect(await list.json()).toMatchObject({ artifacts: [artifact], pagination: { total_items: 1 } });
    const bytes = await app.request(`${BASE}/${taskId}/artifacts/${artifact.artifact_id}`);
    expect(await bytes.text()).toBe('hello bytes');
  });

  it('flow > a step after the last one is still answered, and marked last', async () => {
    const { app, taskId } = await newTask();
    for (let i = 0; i < STEPS_PER_TASK; i++) await app.request(`${BASE}/${taskId}/steps`, json({}));
    const extra = await app.request(`${BASE}/${taskId}/steps`, json({ input: 'y' }));
    expect(extra.status).toBe(200);
    expect(await extra.json()).toMatchObject({ is_last: true });
  });
});

describe('reference agent > pagination', () => {
  const cases: Array<[string, { given: string; want: { count: number; pagination: object } }]> = [
    [
      'defaults > page 1 of size 10',
      {
        given: '',
        want: { count: 3, pagination: { current_page: 1, page_size: 10, total_items: 3, total_pages: 1 } },
      },
    ],
    [
      'page_size=1 > one item, three pages',
      { given: '?page_size=1', want: { count: 1, pagination: { total_pages: 3, page_size: 1 } } },
    ],
    [
      'last page > holds the remainder',
      {
        given: '?page_size=2&current_page=2',
        want: { count: 1, pagination: { current_page: 2, total_pages: 2 } },
      },
    ],
    [
      'past the end > empty page, real totals',
      { given: '?current_page=9', want: { count: 0, pagination: { current_page: 9, total_items: 3 } } },
    ],
  ];
  it.each(cases)('%s', async (_, { given, want }) => {
    const app = createReferenceAgent();
    for (const input of ['a', 'b', 'c']) await app.request(BASE, json({ input }));
    const res = await app.request(`${BASE}${given}`);
    expect(res.status).toBe(200);
    const page = checked(await res.json(), validators.TaskListResponse, 'the page');
    expect(page.tasks).toHaveLength(want.count);
    expect(page.pagination).toMatchObject(want.pagination);
  });

  const bad: Array<[string, { given: string; want: string }]> = [
    ['current_page=0 > below the minimum', { given: '?current_page=0', want: '/current_page' }],
    ['page_size=abc > not an integer', { given: '?page_size=abc', want: '/page_size' }],
    ['page_size=1.5 > not an integer', { given: '?page_size=1.5', want: '/page_size' }],
    ['page_size=3000000000 > beyond int32', { given: '?page_size=3000000000', want: '/page_size' }],
  ];
  it.each(bad)('%s → 400 with a pointer', async (_, { given, want }) => {
    const res = await createReferenceAgent().request(`${BASE}${given}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 400, errors: [{ location: 'query', pointer: want }] });
  });
});

describe('reference agent > refusals', () => {
  const cases: Array<
    [string, { given: () => [string, RequestInit?]; want: { status: number; body: object } }]
  > = [
    [
      'unknown task > 404 {message}',
      { given: () => [`${BASE}/nope`], want: { status: 404, body: { message: 'no task with id "nope"' } } },
    ],
    [
      'unknown task steps > 404',
      { given: () => [`${BASE}/nope/steps`], want: { status: 404, body: { message: expect.any(String) } } },
    ],
    [
      'unknown task artifacts > 404',
      {
        given: () => [`${BASE}/nope/artifacts`],
        want: { status: 404, body: { message: expect.any(String) } },
      },
    ],
    [
      'malformed JSON > 400',
      {
        given: () => [BASE, json('{"input": ')],
        want: { status: 400, body: { type: 'https://agentproto.dev/problems/malformed-json' } },
      },
    ],
    [
      'wrong field type > 422 with pointer',
      {
        given: () => [BASE, json({ input: 42 })],
        want: {
          status: 422,
          body: { errors: [{ location: 'body', pointer: '/input', message: 'must be string or null' }] },
        },
      },
    ],
    [
      'nested wrong type > 422 with pointer',
      {
        given: () => [BASE, json({ additional_input: [] })],
        want: {
          status: 422,
          body: { errors: [{ location: 'body', pointer: '/additional_input', message: 'must be object' }] },
        },
      },
    ],
    [
      'wrong media type > 415',
      {
        given: () => [BASE, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }],
        want: { status: 415, body: { status: 415 } },
      },
    ],
    [
      'unknown route > 404 problem',
      {
        given: () => ['/ap/v1/agent/nothing'],
        want: { status: 404, body: { type: 'https://agentproto.dev/problems/no-such-route' } },
      },
    ],
    [
      'wrong method > 405',
      { given: () => [BASE, { method: 'DELETE' }], want: { status: 405, body: { status: 405 } } },
    ],
  ];
  it.each(cases)('%s', async (_, { given, want }) => {
    const res = await createReferenceAgent().request(...given());
    expect(res.status).toBe(want.status);
    expect(await res.json()).toMatchObject(want.body);
  });

  it('wrong method > 405 names the allowed methods', async () => {
    const res = await createReferenceAgent().request(`${BASE}/x/steps`, { method: 'PUT' });
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  const uploads: Array<
    [string, { given: Array<[string, string]>; want: { pointer: string; message: string } }]
  > = [
    [
      'upload > a text field where a file part belongs is 422',
      { given: [['file', 'not a file']], want: { pointer: '/file', message: 'must be a file part' } },
    ],
    [
      'upload > a form without the file is 422 with /file',
      { given: [['relative_path', 'x']], want: { pointer: '/file', message: 'is required but missing' } },
    ],
  ];
  it.each(uploads)('%s', async (_, { given, want }) => {
    const { app, taskId } = await newTask();
    const form = new FormData();
    for (const [name, value] of given) form.append(name, value);
    const res = await app.request(`${BASE}/${taskId}/artifacts`, { method: 'POST', body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: [want] });
  });

  it('no body > createAgentTask accepts an empty request (body not required upstream)', async () => {
    const res = await createReferenceAgent().request(BASE, { method: 'POST' });
    expect(res.status).toBe(200);
  });
});

describe('generated stubs > answer checks', () => {
  const errors: string[] = [];
  const broken = (body: unknown) =>
    createAgentProtocolApp(
      { ...createReferenceHandlers(), getAgentTask: () => illTyped({ status: 200, body }) },
      { validateResponses: true, onError: (e) => errors.push(String(e)) },
    );

  it('answer check > an invalid handler answer becomes 500 naming the pointer', async () => {
    const res = await broken({ task_id: 7, artifacts: [] }).request(`${BASE}/t`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ errors: [{ pointer: '/task_id', message: 'must be string' }] });
    expect(errors.at(-1)).toContain('getAgentTask 200 body → Task: /task_id: must be string (got 7)');
  });

  it('answer check > off in production mode: the answer goes out as the handler wrote it', async () => {
    const app = createAgentProtocolApp(
      { ...createReferenceHandlers(), getAgentTask: () => illTyped({ status: 200, body: { task_id: 7 } }) },
      { validateResponses: false },
    );
    const res = await app.request(`${BASE}/t`);
    expect(res.status).toBe(200);
  });

  it('handler failure > 500 problem without a stack trace', async () => {
    const app = createAgentProtocolApp(
      {
        ...createReferenceHandlers(),
        getAgentTask: () => {
          throw new Error('secret internals');
        },
      },
      { onError: () => {} },
    );
    const res = await app.request(`${BASE}/t`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internals');
    expect(text).not.toContain('at ');
  });

  it('factory > refuses a handlers object missing an operation', () => {
    const { getAgentTask: _, ...rest } = createReferenceHandlers();
    expect(() => createAgentProtocolApp(illTyped(rest))).toThrow('no handler for operation "getAgentTask"');
  });
});

describe('reference agent > the paths before /ap/v1', () => {
  it('alsoWithout > /agent/tasks answers as /ap/v1/agent/tasks; other paths still 404', async () => {
    const app = createReferenceAgent({ alsoWithout: '/ap/v1' });
    const created = await app.request('/agent/tasks', json({ input: 'old path' }));
    expect(created.status).toBe(200);
    const task_id = stringAt(await created.json(), 'task_id');
    expect((await app.request(`${BASE}/${task_id}`)).status).toBe(200);
    expect((await app.request(`/agent/tasks/${task_id}/steps`, json({ input: 'go' }))).status).toBe(200);
    expect((await app.request('/agent/nothing')).status).toBe(404);
    // Without the option, the old paths are unknown.
    expect((await createReferenceAgent().request('/agent/tasks', json({ input: 'x' }))).status).toBe(404);
  });

  it('withoutPathPrefix > the typed client calls an agent that serves only the old paths', async () => {
    const app = createReferenceAgent({ alsoWithout: '/ap/v1' });
    const seen: string[] = [];
    const client = createAgentProtocolClient({
      baseUrl: 'http://old-agent.test',
      fetch: withoutPathPrefix('/ap/v1', (r) => {
        const { pathname } = new URL(r.url);
        seen.push(`${r.method} ${pathname}`);
        // An old agent: the prefixed paths are not its own.
        return pathname.startsWith('/ap/v1/') ? new Response(null, { status: 404 }) : app.fetch(r);
      }),
    });
    const task = await client.createAgentTask({ body: { input: 'old agent' } });
    expect(task.response.status).toBe(200);
    const step = await client.executeAgentTaskStep({
      params: { path: { task_id: task.data?.task_id ?? '' } },
      body: { input: 'go' },
    });
    expect(step.data?.task_id).toBe(task.data?.task_id);
    expect(seen).toEqual(['POST /agent/tasks', `POST /agent/tasks/${task.data?.task_id}/steps`]);
  });
});
