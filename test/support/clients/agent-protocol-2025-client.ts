// A client under test for `agentproto conformance --client`: our generated Agent Protocol (draft 2025) client, doing
// what each client scenario asks: stream a chat request to the agent `assistant`, skip event types it does not know,
// and end at RequestCompleted (a stream that ends before it, or a request that finished in error, is an error).
// Usage: tsx test/support/clients/agent-protocol-2025-client.ts <agent-url>.
import { createAgentProtocol2025Client } from '@agentproto/agent-protocol-2025';

const KNOWN = new Set(['RequestStarted', 'TextOutput', 'WaitForInput', 'RequestCompleted']);

const url = process.argv.at(-1) ?? '';
const client = createAgentProtocol2025Client({ baseUrl: url, timeoutMs: 10_000 });
try {
  const { items, error, response } = await client.streamRequest({
    params: { path: { agent: 'assistant' } },
    body: { type: 'ChatRequest', input: 'hello' },
  });
  if (!items) throw new Error(`HTTP ${response.status}: ${JSON.stringify(error)}`);
  let completed = false;
  for await (const event of items) {
    if (!KNOWN.has(event.type)) continue;
    console.log(JSON.stringify(event).slice(0, 200));
    if (event.type === 'RequestCompleted') {
      if ('finish_reason' in event && event.finish_reason === 'error') throw new Error('the request failed');
      completed = true;
      break;
    }
  }
  if (!completed) throw new Error('the stream ended before RequestCompleted');
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
