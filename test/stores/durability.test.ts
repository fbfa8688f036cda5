// The proofs of the durable stores, with real server processes (second test stage: Redis comes from Debian):
// - crash safety: a server killed with SIGKILL mid-run and restarted on the same SQLite file or Redis still has every
//   event a client received, finishes the run explicitly as failed, and serves nothing half-written;
// - scale-out: two processes on one Redis; a run started through A and read from B, B killed mid-stream, the client
//   resumes on A with Last-Event-ID: no gap and no repeat over 10,000 events;
// - cancel, resume-with-input (draft 2025) and awaiting_input (Agent Protocol v1) work when the request that cancels
//   or answers lands on the other process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validators } from '@agentproto/agent-protocol-2025';
import { readFrames } from '@agentproto/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { chunksOf, list, prop, stringAt } from '../support/typed.js';
import { post, type Received, readEvents, type StatefulServer, startServer } from './stateful-server.js';

let redis: RedisServer;
const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-durability-'));
const running: StatefulServer[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const server of running) await server.kill('SIGKILL');
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(store: string, instance: string): Promise<StatefulServer> {
  const server = await startServer(store, instance);
  running.push(server);
  return server;
}

async function startCounting(server: StatefulServer, input: string): Promise<string> {
  const response = await post(`${server.draft}/counter/process?wait=true`, { type: 'ChatRequest', input });
  expect(response.status).toBe(200);
  return stringAt(await response.json(), 'request_id');
}

type Stored = Received['event'] & Record<string, unknown>;

async function storedEvents(server: StatefulServer, agent: string, requestId: string): Promise<Stored[]> {
  const response = await fetch(`${server.draft}/${agent}/getevents?request_id=${requestId}&since=0`);
  expect(response.status).toBe(200);
  // sound: getevents answers the request's stored events, a list of AgentEvents (each an object with its id and
  // type, as Received describes), which the proofs compare whole.
  return (await response.json()) as Stored[];
}

/** Ids 1, 2, … n with nothing missing and nothing twice. */
function expectConsecutive(ids: number[]): void {
  expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
}

describe.each([
  ['sqlite', () => `sqlite:${path.join(dir, 'crash.db')}`],
  ['redis', () => `${redis.url}/1`],
])('%s > crash safety', (_kind, storeSpec) => {
  it('a server killed mid-run: what clients saw is kept, the request ends failed, nothing is half-written', async () => {
    const first = await start(storeSpec(), 'solo');
    const requestId = await startCounting(first, 'count 1000000 pause 5');
    const received: Received[] = [];
    const stream = await fetch(`${first.draft}/counter/getevents?request_id=${requestId}&stream=true`);
    let killed: Promise<void> | undefined;
    await readEvents(stream, (r) => {
      received.push(r);
      if (received.length === 800) killed = first.kill('SIGKILL');
      return false;
    });
    await killed;
    expect(received.length).toBeGreaterThanOrEqual(800);

    const second = await start(storeSpec(), 'solo');
    const stored = await storedEvents(second, 'counter', requestId);
    // Every event a client received is there, as it was sent.
    const byId = new Map(stored.map((e) => [e.id, e]));
    for (const r of received) expect(byId.get(r.id)).toEqual(r.event);
    // The run's events are whole, numbered without gaps, each valid, and end with one explicit failure.
    expectConsecutive(stored.map((e) => e.id));
    for (const event of stored) expect(validators.AgentEvent(event), JSON.stringify(event)).toBe(true);
    expect(stored.filter((e) => e.type === 'RequestCompleted')).toHaveLength(1);
    expect(stored.at(-1)).toMatchObject({ type: 'RequestCompleted', finish_reason: 'error' });
    const status = await (await fetch(`${second.draft}/counter/request/${requestId}`)).json();
    expect(status).toMatchObject({ status: 'completed', finish_reason: 'error' });
    // The restarted server goes on: a new request on a new run, its ids from 1.
    const next = await startCounting(second, 'count 3');
    const nextEvents = await (
      await fetch(`${second.draft}/counter/getevents?request_id=${next}&stream=true`)
    ).text();
    expect(nextEvents).toContain('"finish_reason":"success"');
    await second.kill('SIGTERM');
  });

  it('A2A > tasks working when their server is killed end failed on restart, three times over; what a client got is kept', async () => {
    for (let cycle = 1; cycle <= 3; cycle++) {
      const first = await start(storeSpec(), 'a2a-solo');
      // The reference agent's "slow" task appends a chunk to one artifact every 50 ms for 10 s.
      const stream = await a2aCall(first, 'SendStreamingMessage', {
        message: { messageId: `m-${cycle}`, role: 'ROLE_USER', parts: [{ text: 'slow' }] },
      });
      expect(stream.status).toBe(200);
      let taskId = '';
      let chunks = 0;
      let killed: Promise<void> | undefined;
      await readA2aResults(stream, (result) => {
        taskId ||= String(result.task?.id ?? result.artifactUpdate?.taskId ?? '');
        if (result.artifactUpdate) chunks++;
        if (chunks === 5) killed = first.kill('SIGKILL');
        return chunks >= 5;
      });
      await killed;
      expect(taskId).not.toBe('');

      const second = await start(storeSpec(), 'a2a-solo');
      // The restart fails what this instance was working on; GetTask is answered from the store at once.
      const task = await settledTask(second, taskId);
      expect(task.status.state).toBe('TASK_STATE_FAILED');
      // Every chunk the client was sent before the kill is in the stored artifact.
      const text = (task.artifacts?.[0]?.parts ?? []).map((p) => p.text ?? '').join('');
      for (let i = 1; i <= chunks; i++) expect(text).toContain(`step ${i}\n`);
      await second.kill('SIGTERM');
    }
  });
});

/** A JSON-RPC call to an A2A server's 1.0 endpoint. */
function a2aCall(server: StatefulServer, method: string, params: unknown): Promise<Response> {
  return fetch(`${server.a2a}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** What an A2A stream's events and GetTask carry, as far as these proofs read them. */
interface A2aResult {
  task?: { id?: string };
  artifactUpdate?: { taskId?: string };
}
interface A2aTask {
  status: { state: string };
  artifacts?: Array<{ parts?: Array<{ text?: string }> }>;
}

/** Reads a JSON-RPC event stream's results until `onResult` answers true or the stream ends or breaks. */
async function readA2aResults(response: Response, onResult: (result: A2aResult) => boolean): Promise<void> {
  if (!response.body) return;
  try {
    for await (const frame of readFrames(chunksOf(response.body), 'sse')) {
      // sound: each event of a 1.0 stream is a JSON-RPC response whose result, when there is one, is a
      // StreamResponse: an object with at most one of its members, which is all A2aResult says.
      const { result } = JSON.parse(frame.data) as { result?: A2aResult };
      if (result && onResult(result)) break;
    }
  } catch {
    // The server went away mid-stream.
  }
}

/**
 * The task once the restarted server has failed what it abandoned: it does so as it starts, so a few reads at most
 * (bounded: 100, 50 ms apart) see it leave TASK_STATE_WORKING.
 */
async function settledTask(server: StatefulServer, id: string): Promise<A2aTask> {
  let task: A2aTask | undefined;
  for (let attempt = 0; attempt < 100; attempt++) {
    // sound: a GetTask answer is a JSON-RPC response whose result, when there is one, is a 1.0 Task: it has its
    // status (with a state) and may have artifacts of parts, as A2aTask says.
    const answer = (await (await a2aCall(server, 'GetTask', { id })).json()) as { result?: A2aTask };
    task = answer.result;
    if (task && task.status.state !== 'TASK_STATE_WORKING') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} is still ${task?.status.state ?? 'unread'} after 100 reads`);
}

describe('redis > two processes', () => {
  const spec = () => `${redis.url}/2`;
  let a: StatefulServer;
  let b: StatefulServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([start(spec(), 'a'), start(spec(), 'b')]);
  });

  it('scale-out > started on A, read from B, B killed, resumed on A: 10,000 events, no gap, no repeat', async () => {
    const requestId = await startCounting(a, 'count 10000 pause 15');
    const received: Received[] = [];
    const fromB = await fetch(`${b.draft}/counter/getevents?request_id=${requestId}&stream=true`);
    let killed: Promise<void> | undefined;
    await readEvents(fromB, (r) => {
      received.push(r);
      if (received.length === 3000) killed = b.kill('SIGKILL');
      return false;
    });
    await killed;
    const seenOnB = received.length;
    expect(seenOnB).toBeGreaterThanOrEqual(3000);
    expect(received.at(-1)?.event.type).not.toBe('RequestCompleted');
    const last = received.at(-1)?.id ?? 0;
    const fromA = await fetch(`${a.draft}/counter/getevents?request_id=${requestId}&stream=true`, {
      headers: { 'last-event-id': String(last) },
    });
    await readEvents(fromA, (r) => {
      received.push(r);
      return r.event.type === 'RequestCompleted';
    });
    expect(received.length).toBeGreaterThan(seenOnB);
    expectConsecutive(received.map((r) => r.id));
    expect(received.map((r) => r.event.id)).toEqual(received.map((r) => r.id));
    const texts = received.filter((r) => r.event.type === 'TextOutput').map((r) => Number(r.event.content));
    expect(texts).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(received.at(-1)?.event).toMatchObject({ type: 'RequestCompleted', finish_reason: 'success' });
    // B comes back under its name for the next cases: it had no request of its own to finish.
    b = await start(spec(), 'b');
  });

  it('cancel > sent to B, it ends the request A runs: one RequestCompleted, canceled, and A stops', async () => {
    const requestId = await startCounting(a, 'count 1000000 pause 20');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancel = await post(`${b.draft}/counter/process?wait=true`, {
      type: 'CancelRequest',
      request_id: requestId,
    });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ type: 'RequestCompleted', finish_reason: 'canceled' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await storedEvents(a, 'counter', requestId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await storedEvents(a, 'counter', requestId);
    // A's handler stopped: nothing more was published, and the completion is the last event.
    expect(after).toEqual(before);
    expect(after.filter((e) => e.type === 'RequestCompleted')).toHaveLength(1);
    expect(after.at(-1)).toMatchObject({ type: 'RequestCompleted', finish_reason: 'canceled' });
    expectConsecutive(after.map((e) => e.id));
    const again = await post(`${a.draft}/counter/process`, { type: 'CancelRequest', request_id: requestId });
    expect(again.status).toBe(409);
  });

  it('resume > ResumeWithInput sent to B resumes the handler waiting on A', async () => {
    const started = await post(`${a.draft}/asker/process?wait=true`, {
      type: 'ChatRequest',
      input: 'ask me',
    });
    const requestId = stringAt(await started.json(), 'request_id');
    const waiting = await fetch(`${b.draft}/asker/getevents?request_id=${requestId}&stream=true`);
    await readEvents(waiting, (r) => r.event.type === 'WaitForInput');
    const resumed = await post(`${b.draft}/asker/process?wait=true`, {
      type: 'ResumeWithInput',
      request_id: requestId,
      request_keys: { answer: 'forty-two' },
    });
    expect(resumed.status).toBe(200);
    const rest: Received[] = [];
    await readEvents(await fetch(`${b.draft}/asker/getevents?request_id=${requestId}&stream=true`), (r) => {
      rest.push(r);
      return r.event.type === 'RequestCompleted';
    });
    expect(rest.map((r) => r.event.type)).toEqual([
      'RequestStarted',
      'WaitForInput',
      'TextOutput',
      'RequestCompleted',
    ]);
    expect(rest[2]?.event.content).toBe('got forty-two');
    expect(rest[3]?.event.finish_reason).toBe('success');
  });

  it('awaiting_input > the question asked on A, the answer taken by B (Agent Protocol v1)', async () => {
    const task = {
      task_id: stringAt(
        await (await post(`${a.apv1}/ap/v1/agent/tasks`, { input: 'cutting boards' })).json(),
        'task_id',
      ),
    };
    const ask = await post(`${a.apv1}/ap/v1/agent/tasks/${task.task_id}/steps`, {});
    expect(await ask.json()).toMatchObject({ status: 'awaiting_input' });
    const answer = await post(`${b.apv1}/ap/v1/agent/tasks/${task.task_id}/steps`, {
      input: 'wooden, please',
    });
    expect(await answer.json()).toMatchObject({
      status: 'completed',
      output: 'Ordered a set of wooden cutting boards.',
      is_last: true,
    });
    const steps = prop(
      await (await fetch(`${a.apv1}/ap/v1/agent/tasks/${task.task_id}/steps`)).json(),
      'steps',
    );
    expect(list(steps).map((s) => prop(s, 'status'))).toEqual(['awaiting_input', 'completed']);
  });
});
