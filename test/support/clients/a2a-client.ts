// A client under test for `agentproto conformance --client`: our own A2A clients, doing what each client scenario
// asks (a stream for the stream scenarios, one message otherwise). By default connectA2a: the card, then the best
// JSON-RPC interface it declares, 1.0 natively or 0.3 through the translation. Given `rest`, the generated HTTP+JSON
// client of the version whose HTTP+JSON interface the card declares (1.0's `supportedInterfaces`, or 0.3's root
// `url` and `additionalInterfaces`), from the version's entry point (which adds 1.0's A2A-Version header itself).
// Usage: tsx test/support/clients/a2a-client.ts [rest] <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { connectA2a } from '@agentproto/a2a';
import { createA2aClient as createV03Client } from '@agentproto/a2a/0.3';
import { createA2aClient as createV10Client } from '@agentproto/a2a/1.0';

const url = process.argv.at(-1) ?? '';
const rest = process.argv.length > 3 && process.argv.at(-2) === 'rest';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
/** A scenario about streams or their events is met with a stream; any other with one message. */
const streaming = scenario.includes('stream') || scenario.includes('event');
/** How many messages to send: every-enum-value reads a task in each state, one message each. */
const sends = scenario === 'every-enum-value' ? 6 : 1;
const text = 'hello';

/** Prints a streamed answer's events, or fails with the error it answered instead. */
async function printStream(
  answer: { items?: AsyncIterable<unknown> | undefined; error?: unknown; response: Response },
  print: (event: unknown) => void,
): Promise<void> {
  if (answer.items === undefined)
    throw new Error(`the agent answered ${answer.response.status}: ${JSON.stringify(answer.error)}`);
  for await (const event of answer.items) print(event);
}

/** Fails with an answer's error, else prints its data. */
function printAnswer(answer: { data?: unknown; error?: unknown; response: Response }): void {
  if (answer.error !== undefined || answer.data === undefined)
    throw new Error(`the agent answered ${answer.response.status}: ${JSON.stringify(answer.error)}`);
  console.log(JSON.stringify(answer.data).slice(0, 200));
}

/** The HTTP+JSON interface a card declares: 1.0's first, else 0.3's. */
function restInterface(card: Record<string, unknown>): { version: '1.0' | '0.3'; url: string } | undefined {
  const list = (v: unknown): Array<Record<string, unknown>> =>
    Array.isArray(v) ? v.filter((i) => typeof i === 'object' && i !== null) : [];
  for (const i of list(card.supportedInterfaces))
    if (i.protocolBinding === 'HTTP+JSON' && i.protocolVersion === '1.0' && typeof i.url === 'string')
      return { version: '1.0', url: i.url };
  const v03 = typeof card.protocolVersion === 'string' && card.protocolVersion.startsWith('0.3');
  if (v03 && card.preferredTransport === 'HTTP+JSON' && typeof card.url === 'string')
    return { version: '0.3', url: card.url };
  for (const i of list(card.additionalInterfaces))
    if (v03 && i.transport === 'HTTP+JSON' && typeof i.url === 'string')
      return { version: '0.3', url: i.url };
  return undefined;
}

/** The scenario over the generated HTTP+JSON client of the version the card offers it for. */
async function overRest(): Promise<void> {
  const res = await fetch(`${url}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the card answered ${res.status}`);
  const card: unknown = await res.json();
  if (typeof card !== 'object' || card === null || Array.isArray(card))
    throw new Error('the card is not an object');
  // sound: checked just above to be a JSON object.
  const found = restInterface(card as Record<string, unknown>);
  if (!found) throw new Error('the card declares no HTTP+JSON interface for 1.0 or 0.3');
  const print = (event: unknown) => console.log(JSON.stringify(event).slice(0, 200));
  if (found.version === '1.0') {
    const client = createV10Client({ baseUrl: found.url, timeoutMs: 10_000 });
    const body = { message: { messageId: 'm-1', role: 'ROLE_USER' as const, parts: [{ text }] } };
    if (streaming) await printStream(await client.sendStreamingMessage({ body }), print);
    else for (let i = 0; i < sends; i++) printAnswer(await client.sendMessage({ body }));
    return;
  }
  const client = createV03Client({ baseUrl: found.url, timeoutMs: 10_000 });
  const body = { message: { messageId: 'm-1', role: 'ROLE_USER' as const, content: [{ text }] } };
  if (streaming) await printStream(await client.sendStreamingMessage({ body }), print);
  else for (let i = 0; i < sends; i++) printAnswer(await client.sendMessage({ body }));
}

/** The scenario over connectA2a's JSON-RPC client. */
async function overJsonRpc(): Promise<void> {
  const { client } = await connectA2a(`${url}/.well-known/agent-card.json`, { timeoutMs: 10_000 });
  const message = { messageId: 'm-1', role: 'ROLE_USER' as const, parts: [{ text }] };
  if (streaming) {
    for await (const event of client.SendStreamingMessage({ message }))
      console.log(JSON.stringify(event).slice(0, 200));
  } else
    for (let i = 0; i < sends; i++)
      console.log(JSON.stringify(await client.SendMessage({ message })).slice(0, 200));
}

try {
  await (rest ? overRest() : overJsonRpc());
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
