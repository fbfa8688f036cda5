// Issue 13: `agentproto conformance` finished its checks, then waited out the whole --timeout, because the probe's
// timer was never cleared; every generated project's `npm test` took 10 s longer than its checks. No timeout timer
// of the kit may outlive a run.
import { createReferenceAgent } from '@agentproto/agent-protocol/reference-agent';
import { runConformance } from '@agentproto/conformance';
import { serveLocal } from '@agentproto/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('13 > conformance leaves no timer behind', () => {
  it('probe > every timer the run sets for its timeout is cleared by its end', async () => {
    const timeoutMs = 600_000;
    const { server, url } = await serveLocal(createReferenceAgent().fetch, 0);
    const pending = new Set<Parameters<typeof clearTimeout>[0]>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    // sound: the stand-in hands every call to the real setTimeout and answers its handle, so it is the function it
    // replaces (less setTimeout's promisified form, which the run does not use).
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: () => void,
      ms?: number,
      ...rest: unknown[]
    ) => {
      const handle = realSet(fn, ms, ...rest);
      if (ms === timeoutMs) pending.add(handle);
      return handle;
    }) as typeof setTimeout);
    // sound: as above: the stand-in hands every call to the real clearTimeout.
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((handle?: ReturnType<typeof setTimeout>) => {
      if (handle !== undefined) pending.delete(handle);
      realClear(handle);
    }) as typeof clearTimeout);
    try {
      const report = await runConformance({ protocol: 'agent-protocol', target: url, timeoutMs });
      expect(report.summary.failed).toBe(0);
      expect(pending.size).toBe(0);
    } finally {
      for (const handle of pending) realClear(handle);
      server.close();
    }
  });
});
