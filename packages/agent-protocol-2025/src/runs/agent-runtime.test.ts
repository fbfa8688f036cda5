// Two runtimes of one agent over one SQLite file, each with its own connection: what two server processes sharing a
// store do, in one process and in a few milliseconds. (test/stores/ proves the same with real processes and Redis.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AgentStore, MemoryStore } from '@agentproto/runtime';
import { openSqliteStore } from '@agentproto/runtime/stores/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, Request } from '../generated/draft-2025-02/index.js';
import { type AgentDefinition, AgentRuntime } from './agent-runtime.js';

const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const open: Array<{ store: AgentStore; runtime: AgentRuntime }> = [];
afterEach(async () => {
  for (const { store, runtime } of open.splice(0)) {
    runtime.close();
    await store.close();
  }
});

/** Counts to its input, one TextOutput per number, pausing a little every 10; or asks, then repeats the answer. */
const agent: AgentDefinition = {
  name: 'worker',
  purpose: 'counts or asks',
  async chat(input, context) {
    if (input === 'ask') {
      const { answer } = await context.waitForInput({ answer: 'what?' });
      await context.text(`got ${String(answer)}`);
      return 'answered';
    }
    for (let i = 1; i <= Number(input); i++) {
      if (context.signal.aborted) return 'stopped';
      await context.text(String(i));
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return 'counted';
  },
};

async function runtimeOn(file: string, instance: string, definition = agent): Promise<AgentRuntime> {
  const store = await openSqliteStore(file, { pollMs: 5 });
  const runtime = new AgentRuntime(definition, store, { instance, onError: () => {} });
  open.push({ store, runtime });
  await runtime.ready;
  return runtime;
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const chat = (input: string): Request => ({ type: 'ChatRequest', input });

describe('agent runtime > two processes on one store', () => {
  it('follow > a request run by A is followed from B to its end, ids without gaps', async () => {
    const file = path.join(dir, `${++files}.db`);
    const [a, b] = [await runtimeOn(file, 'a'), await runtimeOn(file, 'b')];
    const { requestId } = await a.submit(chat('50'));
    const events = await collect(b.subscribe(requestId));
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 52 }, (_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ type: 'RequestCompleted', finish_reason: 'success' });
  });

  it('cancel > sent to B, it ends the request A runs, once, and A publishes nothing after', async () => {
    const file = path.join(dir, `${++files}.db`);
    const [a, b] = [await runtimeOn(file, 'a'), await runtimeOn(file, 'b')];
    const { requestId } = await a.submit(chat('100000'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { first } = await b.submit({ type: 'CancelRequest', request_id: requestId });
    expect(first).toMatchObject({ type: 'RequestCompleted', finish_reason: 'canceled' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    const events = await a.poll(requestId, 0);
    expect(events.filter((e) => e.type === 'RequestCompleted')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RequestCompleted', finish_reason: 'canceled' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await a.poll(requestId, 0)).toEqual(events);
    await expect(a.submit({ type: 'CancelRequest', request_id: requestId })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('resume > ResumeWithInput sent to B resumes the handler waiting on A', async () => {
    const file = path.join(dir, `${++files}.db`);
    const [a, b] = [await runtimeOn(file, 'a'), await runtimeOn(file, 'b')];
    const { requestId } = await a.submit(chat('ask'));
    const events: AgentEvent[] = [];
    for await (const event of b.subscribe(requestId)) {
      events.push(event);
      if (event.type === 'WaitForInput')
        await b.submit({
          type: 'ResumeWithInput',
          request_id: requestId,
          request_keys: { answer: 42 },
        });
    }
    expect(events.map((e) => e.type)).toEqual([
      'RequestStarted',
      'WaitForInput',
      'TextOutput',
      'RequestCompleted',
    ]);
    expect(events[2]).toMatchObject({ content: 'got 42' });
    await expect(
      b.submit({ type: 'ResumeWithInput', request_id: requestId, request_keys: {} }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('restart > a runtime started under the name of one that died ends its open requests as failed', async () => {
    const file = path.join(dir, `${++files}.db`);
    const stuck: AgentDefinition = { ...agent, chat: () => new Promise<string>(() => {}) };
    const first = await runtimeOn(file, 'solo', stuck);
    const { requestId } = await first.submit(chat('anything'));
    // The first runtime is abandoned mid-request, as a killed process would be; another name leaves it alone.
    const other = await runtimeOn(file, 'someone-else');
    expect((await other.status(requestId)).status).toBe('running');
    const again = await runtimeOn(file, 'solo');
    const events = await again.poll(requestId, 0);
    expect(events.map((e) => e.type)).toEqual(['RequestStarted', 'RequestCompleted']);
    expect(events[1]).toMatchObject({
      finish_reason: 'error',
      error: 'the agent stopped while this request ran',
    });
    expect(await again.status(requestId)).toMatchObject({ status: 'completed', finish_reason: 'error' });
  });
});

describe('agent runtime > a store that fails', () => {
  it('background > a failure while a request completes goes to onError, not to an unhandled rejection', async () => {
    class Failing extends MemoryStore {
      override async delete(): Promise<void> {
        throw new Error('the store went away');
      }
    }
    const errors: unknown[] = [];
    const runtime = new AgentRuntime(agent, new Failing(), { instance: 'x', onError: (e) => errors.push(e) });
    const { requestId } = await runtime.submit(chat('3'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    runtime.close();
    expect(errors).toEqual([new Error('the store went away')]);
    // The events were published before the failing clean-up: the request did complete.
    expect((await runtime.poll(requestId, 0)).at(-1)).toMatchObject({ type: 'RequestCompleted' });
  });
});
