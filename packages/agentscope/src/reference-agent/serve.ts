// Starts a reference AgentScope agent on 127.0.0.1:
// `pnpm --filter @agentproto/agentscope start [-- --port 8090 --version 0.1 --store sqlite:./sessions.db]`.
// Sessions (`session_id`) are kept in the store: memory by default, or the one `--store` or AGENT_STORE names.
// `agentproto serve agentscope@<version>` starts the same agents through `referenceAgentFor`.
import {
  type AgentStore,
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { isVersion, LATEST, VERSIONS } from '../generated/versions.js';
import type { AgentScopeVersion } from '../version-traits.js';
import { createReferenceAgent } from './index.js';

/**
 * The versions the reference agent speaks: every version the manifest lists (its behaviour is the same in each);
 * the start script serves the manifest's latest without `--version`.
 */
export const REFERENCE_VERSIONS = VERSIONS;

/** A version the reference agent speaks. */
export type ReferenceVersion = AgentScopeVersion;

const DEFAULT_PORT = 8090;

/** Serves the reference agent of a version on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  version: ReferenceVersion = LATEST,
  port = DEFAULT_PORT,
  store?: AgentStore,
): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(version, store).fetch, port);
}

/** The reference agent of a version, as `agentproto serve` starts it; a version it does not speak is refused. */
export function referenceAgentFor(version: string): ReferenceAgent {
  if (!isVersion(version))
    throw new Error(
      `the AgentScope reference agent speaks ${REFERENCE_VERSIONS.join(', ')}, not "${version}"`,
    );
  return {
    agents: ['reference'],
    port: DEFAULT_PORT,
    keepsState: true,
    async start({ port, store }) {
      const local = await startReferenceAgent(version, port, store);
      return {
        url: local.url,
        banner: `AgentScope ${version} reference agent listening on ${local.url}/process (sessions: ${store?.kind ?? 'memory'}; Ctrl-C stops it)`,
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    {
      port: DEFAULT_PORT,
      strings: { version: { choices: REFERENCE_VERSIONS }, store: { value: '<spec>' } },
    },
    async ({ port, strings }) => {
      const store = await openStore(strings.store ?? process.env.AGENT_STORE);
      const agent = referenceAgentFor(strings.version ?? LATEST);
      return (await agent.start({ port, store })).banner;
    },
  );
}
