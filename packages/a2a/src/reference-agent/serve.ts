// Starts the A2A reference agent on 127.0.0.1:
// `pnpm --filter @agentproto/a2a start [-- --port 41241 --store sqlite:./agent.db]`.
// `agentproto serve a2a` starts the same agent through `referenceAgentFor`.
import {
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { isVersion, LATEST, VERSIONS } from '../generated/versions.js';
import { createReferenceAgent, type ReferenceOptions } from './reference-agent.js';

const DEFAULT_PORT = 41241;

/** Serves the reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  port = DEFAULT_PORT,
  options: ReferenceOptions = {},
): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(options).app.fetch, port);
}

/** The reference agent, as `agentproto serve` starts it; a version it does not speak is refused. */
export function referenceAgentFor(version: string): ReferenceAgent {
  // Every version the manifest lists (the agent behaves the same in each).
  if (!isVersion(version))
    throw new Error(`the A2A reference agent speaks ${VERSIONS.join(', ')}, not "${version}"`);
  return {
    agents: ['reference'],
    port: DEFAULT_PORT,
    keepsState: true,
    async start({ port, store }) {
      const local = await startReferenceAgent(port, store ? { store } : {});
      const { url } = local;
      return {
        url,
        banner: [
          `A2A reference agent listening on ${url}`,
          `  card:     ${url}/.well-known/agent-card.json`,
          `  JSON-RPC: ${url}/jsonrpc   HTTP+JSON: ${url}/ (send A2A-Version: 1.0)`,
          `  A2A 0.3:  the same JSON-RPC endpoint without A2A-Version; HTTP+JSON under ${url}/v1/`,
        ].join('\n'),
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    { port: DEFAULT_PORT, strings: { store: { value: '<spec>' } } },
    async ({ port, strings }) => {
      const spec = strings.store ?? process.env.AGENT_STORE;
      const store = spec ? await openStore(spec) : undefined;
      return (await referenceAgentFor(LATEST).start({ port, ...(store ? { store } : {}) })).banner;
    },
  );
}
