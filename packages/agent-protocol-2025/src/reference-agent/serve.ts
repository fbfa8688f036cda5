// Starts the reference 2025-draft agent server on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol-2025 start
// [-- --port 8086] [--store sqlite:./agent.db | redis://127.0.0.1:6379] [--instance a]`.
import { parseArgs } from 'node:util';
import { type AgentStore, type LocalServer, openStore, serveLocal } from '@agentproto/runtime';
import { createReferenceServer } from './index.js';

/** Serves the reference agents on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceServer(
  port = 8086,
  options: { store?: AgentStore; instance?: string } = {},
): Promise<LocalServer> {
  return serveLocal(createReferenceServer(options).fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, store: { type: 'string' }, instance: { type: 'string' } },
  });
  const port = Number(values.port ?? process.env.PORT ?? 8086);
  const store = await openStore(values.store ?? process.env.AGENT_STORE);
  const { url } = await startReferenceServer(port, {
    store,
    ...(values.instance ? { instance: values.instance } : {}),
  });
  console.log(
    `Agent Protocol (draft 2025) reference agents listening on ${url}/ (store: ${store.kind}; Ctrl-C stops it)`,
  );
}
