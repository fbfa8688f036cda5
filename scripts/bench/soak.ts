// Load and soak on 127.0.0.1: a reference agent in its own process takes 1,000 concurrent SSE streams, a fifth of the
// clients leaving mid-stream, for two rounds; every stream that stays must end with its terminal event, the agent's
// memory must not grow from one round to the next, and its open handles must come back to what they were. Then a
// 10,000-event request is read over many dropped and resumed connections (Last-Event-ID): no gap, no repeat.
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { parseFrames, readFrames } from '@agentproto/runtime';
import type { Row } from './validators.js';

const STREAMS = Number(process.env.BENCH_SOAK_STREAMS ?? 1000);
const LEAVING = 0.2;

interface Stats {
  rss: number;
  heap: number;
  handles: number;
}

/** A reference agent in a child process, with a way to ask for its stats. */
async function startAgent(which: 'agentscope' | 'agent-protocol-2025') {
  const child = fork(path.join(import.meta.dirname, 'soak-server.ts'), [which], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`the ${which} agent stopped with code ${code}`)));
  });
  const stats = () =>
    new Promise<Stats>((resolve) => {
      child.once('message', (m: Stats) => resolve(m));
      child.send('stats');
    });
  return { url, stats, stop: () => child.disconnect() };
}

/** Whether a value is a JSON object (not an array): what every event of the agents' streams is. */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One SSE request over its own connection; resolves with how it ended. `leaveAfter` events, then it hangs up. */
function stream(
  url: string,
  body: unknown,
  isEnd: (event: Record<string, unknown>) => boolean,
  leaveAfter?: number,
  headers: Record<string, string> = {},
): Promise<{
  outcome: 'ended' | 'left' | 'error';
  events: Array<Record<string, unknown>>;
  ids: number[];
  why?: string;
}> {
  return new Promise((resolve) => {
    const events: Array<Record<string, unknown>> = [];
    const ids: number[] = [];
    const request = http.request(url, {
      method: body === undefined ? 'GET' : 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    });
    request.on('error', (error) => resolve({ outcome: 'error', events, ids, why: error.message }));
    request.on('response', async (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return resolve({ outcome: 'error', events, ids, why: `status ${response.statusCode}` });
      }
      try {
        for await (const frame of parseFrames(readFrames(response, 'sse'))) {
          if (!frame.ok) return resolve({ outcome: 'error', events, ids, why: frame.error });
          const event = frame.value;
          if (!isJsonObject(event))
            return resolve({ outcome: 'error', events, ids, why: 'an event that is no JSON object' });
          events.push(event);
          if (frame.id !== undefined) ids.push(Number(frame.id));
          if (isEnd(event)) {
            response.destroy();
            return resolve({ outcome: 'ended', events, ids });
          }
          if (leaveAfter !== undefined && events.length >= leaveAfter) {
            request.destroy();
            return resolve({ outcome: 'left', events, ids });
          }
        }
        resolve({ outcome: 'error', events, ids, why: 'the stream ended without its terminal event' });
      } catch (error) {
        resolve({
          outcome: 'error',
          events,
          ids,
          why: error instanceof Error ? error.message : String(error),
        });
      }
    });
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function soak(
  which: 'agentscope' | 'agent-protocol-2025',
  path: string,
  body: unknown,
  isEnd: (e: Record<string, unknown>) => boolean,
): Promise<Row[]> {
  const agent = await startAgent(which);
  try {
    const before = await agent.stats();
    const after: Stats[] = [];
    let errors = 0;
    let ended = 0;
    let left = 0;
    const whys = new Set<string>();
    for (let round = 0; round < 2; round++) {
      const runs = await Promise.all(
        Array.from({ length: STREAMS }, (_, i) =>
          stream(
            `${agent.url}${path}`,
            body,
            isEnd,
            i % Math.round(1 / LEAVING) === 0 ? 5 + (i % 20) : undefined,
          ),
        ),
      );
      for (const r of runs) {
        if (r.outcome === 'error') {
          errors++;
          whys.add(r.why ?? '');
        } else if (r.outcome === 'ended') ended++;
        else left++;
      }
      // Streams whose clients left are still winding down in the agent: give them a moment.
      await new Promise((resolve) => setTimeout(resolve, which === 'agent-protocol-2025' ? 12_000 : 1000));
      after.push(await agent.stats());
    }
    const [first, second] = after;
    // One sample after each of the two waves.
    if (!first || !second) throw new Error('the soak took fewer than two samples');
    // The heap after a full collection is what the agent still holds; RSS keeps pages the allocator has not returned.
    const flat = second.heap <= first.heap * 1.1 && second.handles <= before.handles;
    return [
      {
        measure: `${which}: ${STREAMS} concurrent SSE streams × 2 rounds, ${LEAVING * 100}% leaving mid-stream`,
        result: `${errors} errors, ${ended} ended, ${left} left${whys.size > 0 ? ` (${[...whys].slice(0, 3).join('; ')})` : ''}`,
        target: '0 errors',
        met: errors === 0,
      },
      {
        measure: `${which}: agent memory and handles, before → after round 1 → after round 2`,
        result: `heap ${mb(before.heap)} → ${mb(first.heap)} → ${mb(second.heap)}; RSS ${mb(before.rss)} → ${mb(first.rss)} → ${mb(second.rss)}; handles ${before.handles} → ${first.handles} → ${second.handles}`,
        target: 'heap after round 2 within 10% of round 1; handles back',
        met: flat,
        notes:
          which === 'agent-protocol-2025'
            ? 'the run store keeps finished runs (up to 1,000 runs and 200,000 events by default): the heap after a round holds them, by design'
            : 'the heap comes back to its baseline; RSS keeps what the allocator does not return to the system',
      },
    ];
  } finally {
    agent.stop();
  }
}

/** Reads a 10,000-event request over connections dropped every few hundred events and resumed with Last-Event-ID. */
async function resume(): Promise<Row> {
  const agent = await startAgent('agent-protocol-2025');
  try {
    const isEnd = (e: Record<string, unknown>) => e.type === 'RequestCompleted';
    const first = await stream(
      `${agent.url}/long/stream_request`,
      { type: 'ChatRequest', input: '10000' },
      isEnd,
      137,
    );
    const requestId = String(first.events[0]?.request_id);
    const ids = [...first.ids];
    let reconnects = 0;
    let done = first.outcome === 'ended';
    while (!done && reconnects < 1000) {
      reconnects++;
      const next = await stream(
        `${agent.url}/long/getevents?request_id=${encodeURIComponent(requestId)}&stream=true`,
        undefined,
        isEnd,
        50 + ((reconnects * 97) % 400),
        { 'last-event-id': String(ids.at(-1) ?? 0) },
      );
      if (next.outcome === 'error') throw new Error(`resume ${reconnects}: ${next.why}`);
      ids.push(...next.ids);
      done = next.outcome === 'ended';
    }
    let gaps = 0;
    let repeats = 0;
    let previous: number | undefined;
    for (const id of ids) {
      const step = previous === undefined ? undefined : id - previous;
      previous = id;
      if (step === undefined) continue;
      if (step === 0 || step < 0) repeats++;
      else if (step > 1) gaps++;
    }
    return {
      measure:
        'agent-protocol-2025: one request of 10,000 text events read over dropped and resumed connections',
      result: `${ids.length} events over ${reconnects + 1} connections, ${gaps} gaps, ${repeats} repeats, ${done ? 'ended' : 'did not end'}`,
      target: '0 gaps, 0 repeats',
      met: gaps === 0 && repeats === 0 && done && ids.length === 10_002,
      notes: 'RequestStarted, 10,000 TextOutput and RequestCompleted: 10,002 events',
    };
  } finally {
    agent.stop();
  }
}

/** The soak section of `pnpm bench`. */
export async function benchSoak(): Promise<Row[]> {
  const text = 'Tell me about streams and how they end. '.repeat(8);
  const scope = await soak(
    'agentscope',
    '/process',
    { input: [{ role: 'user', type: 'message', content: [{ type: 'text', text }] }] },
    (e) => e.object === 'response' && (e.status === 'completed' || e.status === 'failed'),
  );
  const draft = await soak(
    'agent-protocol-2025',
    '/long/stream_request',
    { type: 'ChatRequest', input: '300' },
    (e) => e.type === 'RequestCompleted',
  );
  return [...scope, ...draft, await resume()];
}
