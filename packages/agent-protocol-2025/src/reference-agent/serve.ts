// Starts the reference 2025-draft agent server on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol-2025 start
// [-- --port 8086] [--store sqlite:./agent.db | redis://127.0.0.1:6379] [--instance a]`.
// `agentproto serve agent-protocol-2025` starts the same server through `referenceAgentFor`.
import {
  type AgentStore,
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { isVersion, LATEST, VERSIONS, type Version } from '../generated/versions.js';
import { createReferenceServer } from './index.js';

const DEFAULT_PORT = 8086;

/** Serves the reference agents on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceServer(
  port = DEFAULT_PORT,
  options: { store?: AgentStore; instance?: string } = {},
  version: Version = LATEST,
): Promise<LocalServer> {
  return serveLocal(createReferenceServer(options, version).fetch, port);
}

/** The reference agents (all on one server), as `agentproto serve` starts them; another version is refused. */
export function referenceAgentFor(version: string): ReferenceAgent {
  // Every version the manifest lists (the agent behaves the same in each, checked by that version's schemas).
  if (!isVersion(version))
    throw new Error(`the draft-2025 reference agents speak ${VERSIONS.join(', ')}, not "${version}"`);
  return {
    agents: ['reference'],
    port: DEFAULT_PORT,
    keepsState: true,
    start: ({ port, store }) => start(port, store ? { store } : {}, version),
  };
}

async function start(port: number, options: { store?: AgentStore; instance?: string }, version: Version) {
  const local = await startReferenceServer(port, options, version);
  return {
    url: local.url,
    banner: `Agent Protocol (draft 2025) reference agents listening on ${local.url}/ (store: ${options.store?.kind ?? 'memory'}; Ctrl-C stops it)`,
    close: () => closeLocal(local),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    { port: DEFAULT_PORT, strings: { store: { value: '<spec>' }, instance: { value: '<name>' } } },
    async ({ port, strings }) => {
      const store = await openStore(strings.store ?? process.env.AGENT_STORE);
      return (
        await start(port, { store, ...(strings.instance ? { instance: strings.instance } : {}) }, LATEST)
      ).banner;
    },
  );
}
