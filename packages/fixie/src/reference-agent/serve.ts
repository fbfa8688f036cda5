// Starts a reference Fixie agent on 127.0.0.1:
// `pnpm --filter @agentproto/fixie start [-- --port 8181 --standalone]`.
// `agentproto serve fixie [--agent standalone]` starts the same agents through `referenceAgentFor`.
import {
  closeLocal,
  type LocalServer,
  type ReferenceAgent,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { isVersion, LATEST, VERSIONS } from '../generated/versions.js';
import { createReferenceAgent, createReferenceStandaloneAgent } from './index.js';

/** The reference agents, by the name `agentproto serve --agent` takes; the first is the default. */
export const REFERENCE_AGENTS = ['code-shot', 'standalone'] as const;

const DEFAULT_PORT = 8181;

/** Serves a reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  kind: (typeof REFERENCE_AGENTS)[number] = 'code-shot',
  port = DEFAULT_PORT,
): Promise<LocalServer> {
  const app = kind === 'standalone' ? createReferenceStandaloneAgent() : createReferenceAgent();
  return serveLocal(app.fetch, port);
}

/** The reference agents of a version, as `agentproto serve` starts them; a version they do not speak is refused. */
export function referenceAgentFor(version: string): ReferenceAgent {
  // Every version the manifest lists (the agent behaves the same in each).
  if (!isVersion(version))
    throw new Error(`the Fixie reference agents speak ${VERSIONS.join(', ')}, not "${version}"`);
  return {
    agents: REFERENCE_AGENTS,
    port: DEFAULT_PORT,
    keepsState: false,
    async start({ port, agent = 'code-shot' }) {
      const kind = REFERENCE_AGENTS.find((a) => a === agent);
      if (!kind)
        throw new Error(`the Fixie reference agents are ${REFERENCE_AGENTS.join(', ')}, not "${agent}"`);
      const local = await startReferenceAgent(kind, port);
      return {
        url: local.url,
        banner: `Fixie ${kind} reference agent listening on ${local.url} (Ctrl-C stops it)`,
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript({ port: DEFAULT_PORT, flags: ['standalone'] }, async ({ port, flags }) => {
    const agent = flags.standalone ? 'standalone' : 'code-shot';
    return (await referenceAgentFor(LATEST).start({ port, agent })).banner;
  });
}
