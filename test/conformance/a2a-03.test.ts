// The A2A 0.3 suite runs 1.0's checks through the generated translation; these agents prove it reads the 0.3 wire
// itself, not the translation's output: each breaks 0.3 in one way the 1.0 side cannot see, and a named check fails.
import { createReferenceAgent } from '@agentproto/a2a/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';

/** The reference agent with every answer's text rewritten on the way out (a fault a real 0.3 server might have). */
function rewritten(from: string, to: string, onlyPath?: string) {
  const inner = createReferenceAgent({ chunkDelayMs: 0, onError: () => {} }).app;
  const app = new Hono();
  app.all('*', async (c) => {
    const res = await inner.fetch(c.req.raw);
    if (onlyPath && new URL(c.req.url).pathname !== onlyPath) return res;
    const text = (await res.text()).replaceAll(from, to);
    return new Response(text, { status: res.status, headers: res.headers });
  });
  return app;
}

const failing = async (target: Hono) => {
  const report = await runConformance({ protocol: 'a2a@0.3', target, timeoutMs: 3_000 });
  return report.checks.filter((c) => c.status === 'fail').map((c) => c.id);
};

describe('a2a@0.3 suite > it can fail', () => {
  it.each([
    [
      '1.0 states on the 0.3 JSON-RPC wire',
      {
        target: () => rewritten('"state":"completed"', '"state":"TASK_STATE_COMPLETED"', '/jsonrpc'),
        fails: ['a2a.rpc.send', 'a2a.wire.schemas'],
      },
    ],
    [
      'tasks without their kind',
      { target: () => rewritten('"kind":"task",', '', '/jsonrpc'), fails: ['a2a.rpc.send'] },
    ],
    [
      'the 1.0 spelling of a canceled state under /v1/',
      {
        target: () => rewritten('TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', '/v1/message:send'),
        fails: ['a2a.rest.send'],
      },
    ],
    [
      'a card without 0.3 interfaces',
      {
        target: () =>
          rewritten('"protocolVersion":"0.3"', '"protocolVersion":"0.4"', '/.well-known/agent-card.json'),
        fails: ['a2a.card.interfaces'],
      },
    ],
    [
      'header-less requests taken as 1.0',
      {
        target: () => createReferenceAgent({ assumeVersion: '1.0', chunkDelayMs: 0, onError: () => {} }).app,
        fails: ['a2a.rpc.send'],
      },
    ],
  ])('%s', async (_name, { target, fails }) => {
    const failed = await failing(target());
    for (const id of fails) expect(failed).toContain(id);
  });
});
