// A client under test for `agentproto conformance --client`: our Fixie client (createClient: the handshake, function
// calls, standalone queries read as NDJSON), doing what each client scenario asks.
// Usage: tsx test/support/clients/fixie-client.ts <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { createClient } from '@agentproto/fixie';

const QUERIES = new Set(['query', 'unusual-answer', 'unknown-fields', 'stream-ends-early']);
const CALLS = new Set([
  'call-function',
  'unusual-answer',
  'unknown-fields',
  'error-answer',
  'every-enum-value',
]);

const url = process.argv.at(-1) ?? '';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
const client = createClient({ baseUrl: url, timeoutMs: 10_000 });
try {
  await client.metadata();
  if (QUERIES.has(scenario))
    for await (const line of client.query('hello')) console.log(line.message.text.slice(0, 200));
  if (CALLS.has(scenario)) console.log((await client.call('hello', 'hi')).message.text.slice(0, 200));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
