// Starts the reference MCP server on 127.0.0.1: `pnpm --filter @agentproto/mcp start [-- --port 3000]`.
// `agentproto serve mcp` starts the same server through `referenceAgentFor`. Its endpoint is `/mcp`.
import { closeLocal, type ReferenceAgent, runServeScript, serveLocal } from '@agentproto/runtime';
import { LATEST } from '../generated/versions.js';
import { mcpVersion } from '../version-traits.js';
import { createReferenceServer } from './index.js';

const DEFAULT_PORT = 3000;

/** The reference server, as `agentproto serve` starts it: one server answers every revision, whichever was asked. */
export function referenceAgentFor(version: string): ReferenceAgent {
  mcpVersion(version);
  return {
    agents: ['reference'],
    port: DEFAULT_PORT,
    keepsState: false,
    async start({ port }) {
      const local = await serveLocal(createReferenceServer().app.fetch, port);
      return {
        url: local.url,
        banner: `MCP reference server listening on ${local.url}/mcp (every revision; Ctrl-C stops it)`,
        close: () => closeLocal(local),
      };
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runServeScript(
    { port: DEFAULT_PORT },
    async ({ port }) => (await referenceAgentFor(LATEST).start({ port })).banner,
  );
}
