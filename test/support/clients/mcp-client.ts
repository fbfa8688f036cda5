// A client under test for `agentproto conformance --client`: our own MCP client (connectMcp: initialize, then the
// session and revision headers on every request; or, for a stateless revision, server/discover and `_meta` with the
// mirrored headers on every request), doing what each client scenario asks.
// Usage: tsx test/support/clients/mcp-client.ts [<revision>] <agent-url>, with AGENTPROTO_SCENARIO naming the
// scenario (the revision defaults to 2025-11-25).
import { connectMcp, isVersion } from '@agentproto/mcp';

const CALLS = new Set([
  'call-tool-stream',
  'error-answer',
  'stream-ends-early',
  'unknown-event',
  'every-enum-value',
]);

const url = process.argv.at(-1) ?? '';
const given = process.argv.length > 3 ? process.argv.at(-2) : undefined;
const version = given !== undefined && isVersion(given) ? given : '2025-11-25';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
try {
  const mcp = await connectMcp({ url: `${url}/mcp`, version, timeoutMs: 10_000 });
  if (scenario === 'every-enum-value')
    console.log(JSON.stringify(await mcp.client.rpc.call('tools/list', {})));
  if (CALLS.has(scenario))
    console.log(
      JSON.stringify(await mcp.client.rpc.call('tools/call', { name: 'echo', arguments: { text: 'hi' } })),
    );
  else console.log(JSON.stringify(await mcp.client.rpc.call('tools/list', {})));
  await mcp.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
