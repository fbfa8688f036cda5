// Starts the reference agent on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol start [-- --port 8000]`.
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent } from './index.js';

/** Serves the reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(port = 8000): Promise<LocalServer> {
  return serveLocal(createReferenceAgent().fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = process.argv.indexOf('--port');
  const port = flag >= 0 ? Number(process.argv[flag + 1]) : Number(process.env.PORT ?? 8000);
  const { url } = await startReferenceAgent(port);
  console.log(`Agent Protocol v1 reference agent listening on ${url}/ap/v1/agent/tasks (Ctrl-C stops it)`);
}
