// Starts a reference Fixie agent on 127.0.0.1:
// `pnpm --filter @agentproto/fixie start [-- --port 8181 --standalone]`.
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent, createReferenceStandaloneAgent } from './index.js';

/** Serves a reference agent on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(
  kind: 'code-shot' | 'standalone' = 'code-shot',
  port = 8181,
): Promise<LocalServer> {
  const app = kind === 'standalone' ? createReferenceStandaloneAgent() : createReferenceAgent();
  return serveLocal(app.fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = process.argv.indexOf('--port');
  const port = flag >= 0 ? Number(process.argv[flag + 1]) : Number(process.env.PORT ?? 8181);
  const kind = process.argv.includes('--standalone') ? 'standalone' : 'code-shot';
  const { url } = await startReferenceAgent(kind, port);
  console.log(`Fixie ${kind} reference agent listening on ${url} (Ctrl-C stops it)`);
}
