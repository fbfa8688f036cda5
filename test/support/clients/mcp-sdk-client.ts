// A client under test for `agentproto conformance --client`: the official MCP TypeScript SDK's client
// (@modelcontextprotocol/sdk, pinned) over its Streamable HTTP transport, doing what each client scenario asks.
// Usage: tsx test/support/clients/mcp-sdk-client.ts <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const CALLS = new Set([
  'call-tool-stream',
  'error-answer',
  'stream-ends-early',
  'unknown-event',
  'every-enum-value',
]);

const url = process.argv.at(-1) ?? '';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
const client = new Client({ name: 'mcp-sdk-client', version: '1.0.0' });
try {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
  await client.connect(transport);
  if (scenario === 'every-enum-value') console.log(JSON.stringify(await client.listTools()));
  if (CALLS.has(scenario)) {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    console.log(JSON.stringify(result));
    if (result.isError) process.exitCode = 1;
  } else console.log(JSON.stringify(await client.listTools()));
  await transport.terminateSession();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await client.close();
}
