// Starts a reference AgentScope agent on 127.0.0.1:
// `pnpm --filter @agentproto/agentscope start [-- --port 8090 --version 0.1]`.
import { type LocalServer, serveLocal } from '@agentproto/runtime';
import { createReferenceAgent } from './index.js';

/** Serves the reference agent of a version on 127.0.0.1; port 0 picks a free port. Resolves once it listens. */
export function startReferenceAgent(version: '0.1' | '1.1' = '1.1', port = 8090): Promise<LocalServer> {
  return serveLocal(createReferenceAgent(version).fetch, port);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const version = arg('--version') === '0.1' ? '0.1' : '1.1';
  const port = Number(arg('--port') ?? process.env.PORT ?? 8090);
  const { url } = await startReferenceAgent(version, port);
  console.log(`AgentScope ${version} reference agent listening on ${url}/process (Ctrl-C stops it)`);
}
