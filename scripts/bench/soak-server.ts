// A reference agent in its own process for the soak bench: it listens on 127.0.0.1 (port 0), tells its parent the
// URL, and answers `stats` with its memory (after a full garbage collection) and its open handles. Started with
// `agentscope` or `agent-protocol-2025` as its argument; it stops when its parent disconnects.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type AgentDefinition, createAgentServer } from '@agentproto/agent-protocol-2025';
import { referenceAgent } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import { serveLocal } from '@agentproto/runtime';

setFlagsFromString('--expose-gc');
const exposed: unknown = runInNewContext('gc');
if (typeof exposed !== 'function') throw new Error('--expose-gc did not expose gc');
const gc = () => void exposed();

/** Emits `count` text events as fast as its readers take them: the run the resume check reads. */
const long: AgentDefinition = {
  name: 'long',
  purpose: 'Counts to the number it is given, one event each.',
  async chat(input, context) {
    const count = Math.min(Number.parseInt(input, 10) || 10, 50_000);
    for (let i = 1; i <= count && !context.signal.aborted; i++) {
      await context.text(String(i));
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return `counted to ${count}`;
  },
};

const which = process.argv[2];
const app =
  which === 'agentscope' ? scopeAgent('1.1') : createAgentServer({ agents: [referenceAgent, long] });
const { server, url } = await serveLocal(app.fetch, 0);

process.on('message', (message: string) => {
  if (message !== 'stats') return;
  gc();
  gc();
  const handles = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
  process.send?.({
    rss: process.memoryUsage().rss,
    heap: process.memoryUsage().heapUsed,
    handles: handles.length,
  });
});
process.on('disconnect', () => {
  server.close();
  process.exit(0);
});
process.send?.({ url });
