// Starts the A2A reference agent on 127.0.0.1:
// `pnpm --filter @agentproto/a2a start [-- --port 41241 --version 1.0 --store sqlite:./agent.db]`.
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
import { NATIVE_VERSIONS, VERSION_WHEN_UNSAID } from '../version-data.js';
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
          `  JSON-RPC: ${url}/jsonrpc   HTTP+JSON: ${url}/ (send A2A-Version: ${NATIVE_VERSIONS.join(' or ')})`,
          `  A2A ${VERSION_WHEN_UNSAID}:  the same JSON-RPC endpoint without A2A-Version; HTTP+JSON under ${url}/v1/`,
        ].join('\n'),
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    // `--version` is accepted for every version the manifest lists, as the other reference agents take it; the agent
    // answers all of them whichever is named.
    { port: DEFAULT_PORT, strings: { version: { choices: VERSIONS }, store: { value: '<spec>' } } },
    async ({ port, strings }) => {
      const spec = strings.store ?? process.env.AGENT_STORE;
      const store = spec ? await openStore(spec) : undefined;
      const agent = referenceAgentFor(strings.version ?? LATEST);
      return (await agent.start({ port, ...(store ? { store } : {}) })).banner;
    },
  );
}
