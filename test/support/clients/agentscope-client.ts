// A client under test for `agentproto conformance --client`: our AgentScope client of the version given before the
// URL (createClient: POST /process, the SSE events checked as they arrive, the final response assembled), doing what
// each client scenario asks: one streamed run, read to its terminal response.
// Usage: tsx test/support/clients/agentscope-client.ts <version> <agent-url>.
import * as v01 from '@agentproto/agentscope/0.1';
import * as v11 from '@agentproto/agentscope/1.1';

const url = process.argv.at(-1) ?? '';
const version = process.argv.at(-2);
const request = {
  input: [
    { role: 'user' as const, type: 'message' as const, content: [{ type: 'text' as const, text: 'hello' }] },
  ],
  stream: true,
};
const options = { baseUrl: url, timeoutMs: 10_000, retries: 0 };
try {
  const run =
    version === '0.1'
      ? v01.createClient(options).process(request)
      : v11.createClient(options).process(request);
  for await (const event of run) console.log(JSON.stringify(event).slice(0, 200));
  console.log(JSON.stringify(await run.response).slice(0, 200));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
