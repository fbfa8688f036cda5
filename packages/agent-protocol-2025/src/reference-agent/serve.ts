// Starts the reference 2025-draft agent server on 127.0.0.1: `pnpm --filter @agentproto/agent-protocol-2025 start`.
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { createReferenceServer } from './index.js';

/** Serves the reference agents on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceServer(port = 8086): Promise<LocalServer> {
  return serveLocal(createReferenceServer().fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = process.argv.indexOf('--port');
  const port = flag >= 0 ? Number(process.argv[flag + 1]) : Number(process.env.PORT ?? 8086);
  const { url } = await startReferenceServer(port);
  console.log(`Agent Protocol (draft 2025) reference agents listening on ${url}/ (Ctrl-C stops it)`);
}
