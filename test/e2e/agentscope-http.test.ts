// AgentScope agents over real HTTP on 127.0.0.1 (port 0): the reference agents driven by the process client, and a
// client that disconnects mid-stream.

import * as v01 from '@agentproto/agentscope/0.1';
import * as v11 from '@agentproto/agentscope/1.1';
import { createClient } from '@agentproto/agentscope/1.1';
import { startReferenceAgent } from '@agentproto/agentscope/reference-agent/serve';
import { serveLocal } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';

const servers: ServerType[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** Serves on 127.0.0.1 (port 0) until the tests end. */
async function listen(app: ReturnType<typeof v11.createAgent>): Promise<string> {
  const { server, url } = await serveLocal(app.fetch, 0);
  servers.push(server);
  return url;
}

/** Waits for a condition, polling at most `tries` times; a bounded loop that stops by itself. */
async function eventually(condition: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  return condition();
}

describe('e2e > agentscope over HTTP', () => {
  it.each(['0.1', '1.1'] as const)(
    'reference agent %s > an echo, streamed and assembled',
    async (version) => {
      const { server, url } = await startReferenceAgent(version, 0);
      servers.push(server);
      const client =
        version === '1.1' ? v11.createClient({ baseUrl: url }) : v01.createClient({ baseUrl: url });
      // sound: a user's text message is a request of 0.1 and 1.1 alike; `never` because `process` of the union of
      // the two versions' clients wants both request types at once.
      const run = client.process({
        input: [{ role: 'user', type: 'message', content: [{ type: 'text', text: 'over the wire' }] }],
      } as never);
      let events = 0;
      for await (const _ of run) events++;
      expect(events).toBeGreaterThan(5);
      expect((await run.response).output?.[0]?.content?.[0]).toMatchObject({
        text: 'You said: over the wire',
      });
    },
  );

  it('disconnect > a client that goes away aborts the handler and closes its generator', async () => {
    const seen = { aborted: false, closed: false, deltas: 0 };
    const app = v11.createAgent({
      async *run(_request, { signal }) {
        signal.addEventListener('abort', () => {
          seen.aborted = true;
        });
        try {
          // An endless answer: only the client's leaving ends it.
          for (let i = 0; i < 100_000 && !signal.aborted; i++) {
            seen.deltas++;
            yield { type: 'text', delta: `${i} ` };
            await new Promise((r) => setTimeout(r, 5));
          }
        } finally {
          seen.closed = true;
        }
      },
    });
    const url = await listen(app);
    const leave = new AbortController();
    const run = createClient({ baseUrl: url }).process(
      { input: [{ role: 'user', content: [{ type: 'text', text: 'go on forever' }] }] },
      { signal: leave.signal },
    );
    let read = 0;
    await expect(
      (async () => {
        for await (const _ of run) {
          if (++read === 10) leave.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(await eventually(() => seen.aborted && seen.closed)).toBe(true);
    const after = seen.deltas;
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.deltas).toBe(after);
  });
});
