// A client under test for `agentproto conformance --client`: our own A2A client (connectA2a: the card, then the best
// JSON-RPC interface it declares, 1.0 natively or 0.3 through the translation), doing what each client scenario asks.
// Usage: tsx test/support/clients/a2a-client.ts <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { connectA2a } from '@agentproto/a2a';

const STREAMING = new Set(['stream-ends-early', 'unknown-event']);

const url = process.argv.at(-1) ?? '';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
const { client } = await connectA2a(`${url}/.well-known/agent-card.json`, { timeoutMs: 10_000 });
const message = { messageId: 'm-1', role: 'ROLE_USER' as const, parts: [{ text: 'hello' }] };
try {
  if (STREAMING.has(scenario)) {
    for await (const event of client.SendStreamingMessage({ message }))
      console.log(JSON.stringify(event).slice(0, 200));
  } else console.log(JSON.stringify(await client.SendMessage({ message })).slice(0, 200));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
