// The stores: events appended per second and SSE events delivered per second on SQLite and Redis, each as a ratio to
// the memory store measured in the same rounds, and the resident memory of a process keeping 1,000 runs in each.
// Redis rows need redis-server (scripts/install-test-tools.sh installs it); without it they say so and are skipped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentServer } from '@agentproto/agent-protocol-2025';
import { type AgentStore, openStore, readFrames, serveLocal } from '@agentproto/runtime';
import { type RedisServer, startRedis } from '../../test/support/redis-server.js';
import { spread } from './timing.js';
import type { Row } from './validators.js';

const ROUNDS = 11;
const APPENDS = 20_000;
const SSE_EVENTS = 10_000;
const EVENT = {
  type: 'TextOutput',
  role: 'assistant',
  run_id: 1,
  agent: 'bench',
  depth: 0,
  content: 'x'.repeat(150),
};

/** Appends per second, one at a time as a runtime publishes them. */
async function appendRate(store: AgentStore, log: string): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < APPENDS; i++) await store.append(log, EVENT);
  return APPENDS / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** How many runs append at once in the concurrent rows. */
const RUNS = 100;

/** Appends per second with RUNS runs appending at once, each one at a time to its own log (many streams live). */
async function concurrentAppendRate(store: AgentStore, log: string): Promise<number> {
  const each = Math.ceil(APPENDS / RUNS);
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: RUNS }, async (_, run) => {
      for (let i = 0; i < each; i++) await store.append(`${log}-${run}`, EVENT);
    }),
  );
  return (each * RUNS) / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** SSE events per second a client receives from stream_request, the agent publishing as fast as it can. */
async function sseRate(url: string): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await fetch(`${url}/writer/stream_request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'ChatRequest', input: String(SSE_EVENTS) }),
  });
  let count = 0;
  // sound: Node's web ReadableStream is async iterable (Node 18 and later); the DOM library the tree compiles
  // against does not declare it.
  for await (const _ of readFrames((response.body ?? []) as unknown as AsyncIterable<Uint8Array>, 'sse'))
    count++;
  if (count !== SSE_EVENTS + 2) throw new Error(`expected ${SSE_EVENTS + 2} events, got ${count}`);
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

function serverOn(store: AgentStore) {
  return createAgentServer({
    store,
    instance: 'bench',
    agents: [
      {
        name: 'writer',
        purpose: 'Publishes as many TextOutput events as its input says.',
        async chat(input, context) {
          for (let i = 0; i < Number(input); i++) await context.text(EVENT.content);
          return 'done';
        },
      },
    ],
  });
}

export async function benchStores(): Promise<Row[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-bench-stores-'));
  let redis: RedisServer | undefined;
  try {
    redis = await startRedis();
  } catch {
    console.error(
      'bench: stores: redis-server is not installed (scripts/install-test-tools.sh); Redis rows skipped',
    );
  }
  try {
    const specs: Array<[string, string]> = [
      ['memory', 'memory'],
      ['SQLite', `sqlite:${path.join(dir, 'bench.db')}`],
      ...(redis ? [['Redis', redis.url] satisfies [string, string]] : []),
    ];
    const stores = await Promise.all(specs.map(([, spec]) => openStore(spec)));
    const subjects = await Promise.all(
      stores.map(async (store) => {
        const server = await serveLocal(serverOn(store).fetch, 0);
        // Client and server share this process, whose loop the append rows keep busy: a server closing an idle
        // keep-alive connection (after 5 s) just as the client reuses it for the next round's stream resets that
        // request. The connections stay open instead; close() ends them.
        if (server.server instanceof Server) server.server.keepAliveTimeout = 0;
        return { store, server };
      }),
    );
    const appends: number[][] = specs.map(() => []);
    const concurrent: number[][] = specs.map(() => []);
    const sse: number[][] = specs.map(() => []);
    // Warm-up, then rounds that take the stores in a rotated order.
    for (const { store, server } of subjects) {
      await appendRate(store, 'warm-up');
      await concurrentAppendRate(store, 'warm-up');
      await sseRate(server.url);
    }
    for (let round = 0; round < ROUNDS; round++)
      for (let k = 0; k < specs.length; k++) {
        const i = (k + round) % specs.length;
        // An index modulo the length: always a subject.
        const subject = subjects[i];
        if (!subject) continue;
        appends[i]?.push(await appendRate(subject.store, `round-${round}`));
        concurrent[i]?.push(await concurrentAppendRate(subject.store, `concurrent-${round}`));
        sse[i]?.push(await sseRate(subject.server.url));
      }
    for (const s of subjects) s.server.server.close();
    for (const s of stores) await s.close();

    const rows: Row[] = [];
    const ratioRow = (what: string, samples: number[][], i: number, unit: string): Row => {
      const name = specs[i]?.[0] ?? '';
      const base = samples[0] ?? [];
      const own = samples[i] ?? [];
      const rate = spread(own);
      if (i === 0)
        return {
          measure: `${what}, memory store`,
          result: `${Math.round(rate.median).toLocaleString('en')} ${unit}/s (${Math.round(rate.min).toLocaleString('en')}–${Math.round(rate.max).toLocaleString('en')})`,
          target: 'baseline',
          met: undefined,
        };
      const ratios = spread(own.map((v, r) => v / (base[r] ?? v)));
      return {
        measure: `${what}, ${name} store ÷ memory store`,
        result: `${ratios.median.toFixed(2)}× (${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)}); ${Math.round(rate.median).toLocaleString('en')} ${unit}/s`,
        target: 'measured',
        met: undefined,
        notes: `${ROUNDS} rounds, each side by side with memory`,
      };
    };
    for (let i = 0; i < specs.length; i++)
      rows.push(
        ratioRow(
          `events appended one at a time (${APPENDS.toLocaleString('en')} per round)`,
          appends,
          i,
          'events',
        ),
      );
    for (let i = 0; i < specs.length; i++) {
      const row = ratioRow(
        `events appended by ${RUNS} runs at once, each one at a time (${APPENDS.toLocaleString('en')} per round)`,
        concurrent,
        i,
        'events',
      );
      // The group commit's aim: appends that arrive together share one transaction (SQLite) or one write (Redis).
      if (i > 0) {
        const median = Number(row.result.split('×')[0]);
        rows.push({ ...row, target: '≥ 0.25×', met: median >= 0.25 });
      } else rows.push(row);
    }
    for (let i = 0; i < specs.length; i++)
      rows.push(
        ratioRow(
          `SSE events delivered by stream_request (${SSE_EVENTS.toLocaleString('en')} per round)`,
          sse,
          i,
          'events',
        ),
      );

    // Resident memory with 1,000 runs kept, each store in a fresh process; first the same process with none.
    const rssOf = (spec: string, runs: number) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '--expose-gc',
            '--import',
            'tsx',
            path.join(import.meta.dirname, 'stores-rss.ts'),
            spec,
            String(runs),
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
        ).trim(),
      );
    rows.push({
      measure: 'resident memory of the same server process with no runs (baseline)',
      result: `${(rssOf('memory', 0) / 1024 ** 2).toFixed(0)} MiB`,
      target: 'baseline',
      met: undefined,
    });
    for (const [name, spec] of specs) {
      const target = spec.startsWith('sqlite:')
        ? `sqlite:${path.join(dir, 'rss.db')}`
        : spec.startsWith('redis')
          ? `${spec}/3`
          : spec;
      const rss = rssOf(target, 1000);
      rows.push({
        measure: `resident memory with 1,000 runs of 20 events kept, ${name} store`,
        result: `${(rss / 1024 ** 2).toFixed(0)} MiB`,
        target: 'measured',
        met: undefined,
        notes: 'one process, after a full garbage collection; the Redis server’s own memory is not counted',
      });
    }
    return rows;
  } finally {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
