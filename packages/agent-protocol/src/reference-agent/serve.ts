// Starts a reference agent on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol start [-- --port 8000]
// [--store sqlite:./agent.db | redis://127.0.0.1:6379] [--agent cutting-board] [--version <version>]`. The default
// agent speaks every version without the awaiting_input extension; the cutting board is the awaiting_input RFC's
// dialogue, for every version with it (the manifest's `awaitingInput` trait): its first step asks a question.
// `agentproto serve agent-protocol@<version>` starts the agent of that version through `referenceAgentFor`.
import {
  type AgentStore,
  closeLocal,
  type LocalServer,
  openStore,
  type ReferenceAgent,
  runServeScript,
  ServeArgsError,
  serveLocal,
} from '@agentproto/runtime';
import { LATEST, VERSIONS, type Version } from '../generated/versions.js';
import { agentProtocolVersion, VERSION_TRAITS } from '../version-traits.js';
import { createCuttingBoardAgent, createReferenceAgent, TaskStore } from './index.js';

/**
 * The agents this script serves, by the name `--agent` takes: each serves the versions whose `awaitingInput` trait
 * is its own (the reference agent's steps never ask; the cutting board's first step does).
 */
export const REFERENCE_AGENTS = {
  reference: { create: createReferenceAgent, speaks: 'Agent Protocol', awaitingInput: false },
  'cutting-board': {
    create: createCuttingBoardAgent,
    speaks: 'Agent Protocol with awaiting_input',
    awaitingInput: true,
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
  version: Version = versionsOf(agent)[0] ?? LATEST,
): Promise<LocalServer> {
  return serveLocal(REFERENCE_AGENTS[agent].create(undefined, new TaskStore(store), version).fetch, port);
}

/** The versions an agent serves: those whose `awaitingInput` trait is the agent's, in the manifest's order. */
function versionsOf(agent: ReferenceAgentName): Version[] {
  return VERSIONS.filter((v) => VERSION_TRAITS[v].awaitingInput === REFERENCE_AGENTS[agent].awaitingInput);
}

/** The reference agents that speak a version, as `agentproto serve` starts them; a version none speaks is refused. */
export function referenceAgentFor(name: string): ReferenceAgent {
  const version = agentProtocolVersion(name);
  const agents = NAMES.filter((agent) => versionsOf(agent).includes(version));
  if (agents.length === 0)
    throw new Error(`no Agent Protocol reference agent speaks ${version}, whose traits none of them has`);
  return {
    agents,
    port: DEFAULT_PORT,
    keepsState: true,
    async start({ port, store, agent = agents[0] }) {
      const name = agents.find((a) => a === agent);
      if (!name) throw new Error(`the ${version} reference agents are ${agents.join(', ')}, not "${agent}"`);
      const local = await startReferenceAgent(port, store, name, version);
      return {
        url: local.url,
        banner: `${REFERENCE_AGENTS[name].speaks} ${version} reference agent (${name}) listening on ${local.url}/ap/v1/agent/tasks (store: ${store?.kind ?? 'memory'}; Ctrl-C stops it)`,
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    {
      port: DEFAULT_PORT,
      strings: { store: { value: '<spec>' }, agent: { choices: NAMES }, version: { choices: VERSIONS } },
    },
    async ({ port, strings }) => {
      // runServeScript has refused a name outside NAMES, and a version outside VERSIONS. Without --agent, the agent
      // is the one that speaks the version asked for (the reference agent when none is asked for either).
      const named = strings.agent !== undefined && isAgentName(strings.agent) ? strings.agent : undefined;
      const version = strings.version ?? versionsOf(named ?? 'reference')[0] ?? LATEST;
      const served = referenceAgentFor(version);
      const agent = named ?? served.agents[0];
      if (agent === undefined || !served.agents.includes(agent))
        throw new ServeArgsError(
          `--agent ${agent} does not speak ${version}; the agents that do: ${served.agents.join(', ')}`,
        );
      const store = await openStore(strings.store ?? process.env.AGENT_STORE);
      return (await served.start({ port, store, agent })).banner;
    },
  );
}
