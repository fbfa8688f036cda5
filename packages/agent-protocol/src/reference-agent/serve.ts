// Starts the reference agent on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol start [-- --port 8000]
// [--store sqlite:./agent.db | redis://127.0.0.1:6379]`.
import { parseArgs } from 'node:util';
import { type AgentStore, type LocalServer, openStore, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent, TaskStore } from './index.js';

/** Serves the reference agent on 127.0.0.1, its tasks in `store`; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(port = 8000, store?: AgentStore): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(undefined, new TaskStore(store)).fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, store: { type: 'string' } } });
  const port = Number(values.port ?? process.env.PORT ?? 8000);
  const store = await openStore(values.store ?? process.env.AGENT_STORE);
  const { url } = await startReferenceAgent(port, store);
  console.log(
    `Agent Protocol v1 reference agent listening on ${url}/ap/v1/agent/tasks (store: ${store.kind}; Ctrl-C stops it)`,
  );
}
