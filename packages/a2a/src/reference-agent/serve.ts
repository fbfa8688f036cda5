// Starts the A2A reference agent on 127.0.0.1:
// `pnpm --filter @agentproto/a2a start [-- --port 41241 --store sqlite:./agent.db]`.
import { type LocalServer, openStore, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent, type ReferenceOptions } from './reference-agent.js';

/** Serves the reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(port = 41241, options: ReferenceOptions = {}): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(options).app.fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const port = Number(flag('--port') ?? process.env.PORT ?? 41241);
  const spec = flag('--store') ?? process.env.AGENT_STORE;
  const store = spec ? await openStore(spec) : undefined;
  const { url } = await startReferenceAgent(port, store ? { store } : {});
  console.log(`A2A reference agent listening on ${url}`);
  console.log(`  card:     ${url}/.well-known/agent-card.json`);
  console.log(`  JSON-RPC: ${url}/jsonrpc   HTTP+JSON: ${url}/ (send A2A-Version: 1.0)`);
}
