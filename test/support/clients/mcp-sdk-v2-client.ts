// A client under test for `agentproto conformance --client`: the official MCP TypeScript SDK's v2 client
// (@modelcontextprotocol/client, pinned) over its Streamable HTTP transport, doing what each client scenario asks.
// Pinned to a revision (default 2026-07-28: server/discover, no handshake and no session), or left to negotiate with
// `auto` (server/discover first, then the 2025 initialize handshake when the server does not answer it as a
// 2026-07-28 server does).
// Usage: tsx test/support/clients/mcp-sdk-v2-client.ts [auto|<revision>] <agent-url>, with AGENTPROTO_SCENARIO
// naming the scenario.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const url = process.argv.at(-1) ?? '';
const given = process.argv.length > 3 ? process.argv.at(-2) : undefined;
const mode = given === 'auto' ? 'auto' : { pin: given ?? '2026-07-28' };
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
/** every-enum-value lists the tools, then calls echo. */
const both = scenario === 'every-enum-value';
/** A scenario about tool calls, their errors, streams or events calls the tool echo; any other lists the tools. */
const calls = both || ['call', 'error', 'stream', 'event'].some((word) => scenario.includes(word));
const client = new Client({ name: 'mcp-sdk-v2-client', version: '1.0.0' }, { versionNegotiation: { mode } });
const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
try {
  await client.connect(transport);
  if (both || !calls) console.log(JSON.stringify(await client.listTools()));
  if (calls) {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    console.log(JSON.stringify(result));
    if (result.isError) process.exitCode = 1;
  }
  // Only the 2025 handshake opens a session; a 2026-07-28 connection has none to end.
  if (transport.sessionId !== undefined) await transport.terminateSession();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await client.close();
}
