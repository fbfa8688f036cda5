// The MCP suite calls a tool only when the server annotates it read-only, unless the run allows side effects
// (`--side-effects`): a conformance run against a live server must not delete a user's files. The reference server
// with one of its tools stripped of its annotation: the default run never calls it and says so; with side effects
// allowed it is called.
import { runConformance } from '@agentproto/conformance';
import { createReferenceServer } from '@agentproto/mcp/reference-agent';
import { describe, expect, it } from 'vitest';
import { isRecord } from '../support/typed.js';
import { broken, json } from './faults.js';

const TOOL = 'test_image_content';

/** The reference server whose `TOOL` has no annotations, counting the calls it gets. */
function agent() {
  const calls = { count: 0 };
  const stripped = broken(
    createReferenceServer().app,
    { method: 'POST', path: /^\/mcp$/, body: (t) => t.includes('"method":"tools/list"') },
    json((body) => {
      const tools: unknown[] = body.result.tools;
      for (const t of tools) if (isRecord(t) && t.name === TOOL) delete t.annotations;
      return body;
    }),
  );
  return {
    calls,
    fetch: async (request: Request) => {
      const text = request.method === 'POST' ? await request.clone().text() : '';
      if (text.includes('"method":"tools/call"') && text.includes(`"name":"${TOOL}"`)) calls.count++;
      return stripped.fetch(request);
    },
  };
}

describe('mcp.tools.call > side effects', () => {
  for (const protocol of ['mcp@2025-11-25', 'mcp@2026-07-28']) {
    it(`${protocol} > by default a tool not annotated read-only is not called, and the report says so`, async () => {
      const target = agent();
      const report = await runConformance({ protocol, target });
      const check = report.checks.find((c) => c.id === 'mcp.tools.call');
      expect(check?.status, check?.message).toBe('pass');
      expect(check?.message).toMatch(
        /; \d+ not called: not annotated readOnlyHint \(--side-effects calls them\)$/,
      );
      expect(check?.message).not.toContain(TOOL);
      expect(target.calls.count).toBe(0);
    });

    it(`${protocol} > with side effects allowed it is called`, async () => {
      const target = agent();
      const report = await runConformance({ protocol, target, sideEffects: true });
      const check = report.checks.find((c) => c.id === 'mcp.tools.call');
      expect(check?.status, check?.message).toBe('pass');
      expect(check?.message).toContain(TOOL);
      expect(target.calls.count).toBe(1);
    });
  }
});
