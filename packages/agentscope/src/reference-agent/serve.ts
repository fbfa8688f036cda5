// Starts a reference AgentScope agent on 127.0.0.1:
// `pnpm --filter @agentproto/agentscope start [-- --port 8090 --version 0.1 --store sqlite:./sessions.db]`.
// Sessions (`session_id`) are kept in the store: memory by default, or the one `--store` or AGENT_STORE names.
import { type AgentStore, type LocalServer, openStore, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent } from './index.js';

/** Serves the reference agent of a version on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  version: '0.1' | '1.1' = '1.1',
  port = 8090,
  store?: AgentStore,
): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(version, store).fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const version = arg('--version') === '0.1' ? '0.1' : '1.1';
  const port = Number(arg('--port') ?? process.env.PORT ?? 8090);
  const store = await openStore(arg('--store') ?? process.env.AGENT_STORE);
  const { url } = await startReferenceAgent(version, port, store);
  console.log(
    `AgentScope ${version} reference agent listening on ${url}/process (sessions: ${store.kind}; Ctrl-C stops it)`,
  );
}
