// Starts a reference agent on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol start [-- --port 8000]
// [--store sqlite:./agent.db | redis://127.0.0.1:6379] [--agent cutting-board]`. The default agent speaks v1; the
// cutting board is the awaiting_input RFC's dialogue (v1 with the extension): its first step asks a question.
import { parseArgs } from 'node:util';
import { type AgentStore, type LocalServer, openStore, serveLocal } from '@agentproto/runtime';
import { createCuttingBoardAgent, createReferenceAgent, TaskStore } from './index.js';

/** The agents this script serves, by the name `--agent` takes. */
export const REFERENCE_AGENTS = {
  reference: { create: createReferenceAgent, speaks: 'Agent Protocol v1' },
  'cutting-board': { create: createCuttingBoardAgent, speaks: 'Agent Protocol v1 with awaiting_input' },
} as const;

/** The name of a reference agent this script serves. */
export type ReferenceAgentName = keyof typeof REFERENCE_AGENTS;

/** Serves a reference agent on 127.0.0.1, its tasks in `store`; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  port = 8000,
  store?: AgentStore,
  agent: ReferenceAgentName = 'reference',
): Promise<LocalServer> {
  return serveLocal(REFERENCE_AGENTS[agent].create(undefined, new TaskStore(store)).fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, store: { type: 'string' }, agent: { type: 'string' } },
  });
  const agent = (values.agent ?? 'reference') as ReferenceAgentName;
  if (!Object.hasOwn(REFERENCE_AGENTS, agent)) {
    console.error(`--agent must be one of ${Object.keys(REFERENCE_AGENTS).join(', ')}, not "${agent}"`);
    process.exit(2);
  }
  const port = Number(values.port ?? process.env.PORT ?? 8000);
  const store = await openStore(values.store ?? process.env.AGENT_STORE);
  const { url } = await startReferenceAgent(port, store, agent);
  console.log(
    `${REFERENCE_AGENTS[agent].speaks} reference agent (${agent}) listening on ${url}/ap/v1/agent/tasks (store: ${store.kind}; Ctrl-C stops it)`,
  );
}
