// Starts a reference agent on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol start [-- --port 8000]
// [--store sqlite:./agent.db | redis://127.0.0.1:6379] [--agent cutting-board]`. The default agent speaks v1; the
// cutting board is the awaiting_input RFC's dialogue (v1 with the extension): its first step asks a question.
// `agentproto serve agent-protocol@<version>` starts the agent of that version through `referenceAgentFor`.
import {
  type AgentStore,
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  runServeScript,
  serveLocal,
} from '@agentproto/runtime';
import { createCuttingBoardAgent, createReferenceAgent, TaskStore } from './index.js';

/** The agents this script serves, by the name `--agent` takes, with the protocol version each speaks. */
export const REFERENCE_AGENTS = {
  reference: { create: createReferenceAgent, speaks: 'Agent Protocol v1', version: 'v1' },
  'cutting-board': {
    create: createCuttingBoardAgent,
    speaks: 'Agent Protocol v1 with awaiting_input',
    version: 'v1-awaiting-input',
  },
} as const;

/** The name of a reference agent this script serves. */
export type ReferenceAgentName = keyof typeof REFERENCE_AGENTS;

/** Whether a name is that of a reference agent this script serves. */
function isAgentName(name: string): name is ReferenceAgentName {
  return Object.hasOwn(REFERENCE_AGENTS, name);
}

const NAMES = Object.keys(REFERENCE_AGENTS).filter(isAgentName);
const DEFAULT_PORT = 8000;

/** Serves a reference agent on 127.0.0.1, its tasks in `store`; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  port = DEFAULT_PORT,
  store?: AgentStore,
  agent: ReferenceAgentName = 'reference',
): Promise<LocalServer> {
  return serveLocal(REFERENCE_AGENTS[agent].create(undefined, new TaskStore(store)).fetch, port);
}

/** The reference agents that speak a version, as `agentproto serve` starts them; a version none speaks is refused. */
export function referenceAgentFor(version: string): ReferenceAgent {
  const agents = NAMES.filter((name) => REFERENCE_AGENTS[name].version === version);
  if (agents.length === 0)
    throw new Error(
      `the Agent Protocol reference agents speak ${NAMES.map((n) => REFERENCE_AGENTS[n].version).join(', ')}, not "${version}"`,
    );
  return {
    agents,
    port: DEFAULT_PORT,
    keepsState: true,
    async start({ port, store, agent = agents[0] }) {
      const name = agents.find((a) => a === agent);
      if (!name) throw new Error(`the ${version} reference agents are ${agents.join(', ')}, not "${agent}"`);
      const local = await startReferenceAgent(port, store, name);
      return {
        url: local.url,
        banner: `${REFERENCE_AGENTS[name].speaks} reference agent (${name}) listening on ${local.url}/ap/v1/agent/tasks (store: ${store?.kind ?? 'memory'}; Ctrl-C stops it)`,
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    {
      port: DEFAULT_PORT,
      strings: { store: { value: '<spec>' }, agent: { choices: NAMES } },
    },
    async ({ port, strings }) => {
      // runServeScript has refused a name outside NAMES.
      const agent = strings.agent !== undefined && isAgentName(strings.agent) ? strings.agent : 'reference';
      const store = await openStore(strings.store ?? process.env.AGENT_STORE);
      return (await referenceAgentFor(REFERENCE_AGENTS[agent].version).start({ port, store, agent })).banner;
    },
  );
}
