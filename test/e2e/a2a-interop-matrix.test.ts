// The A2A interop matrix: {our generated clients, the official SDK's client} × {0.3, 1.0} × {JSON-RPC, HTTP+JSON},
// each against {our reference agent, an agent built with the official SDK's server classes}: sixteen cells, one
// scenario in each (send a message and get a completed task, read it back, stream a second one to its final state,
// ask for a task that does not exist). Every cell passes every step, or the step is listed below as a deviation with
// its source; a listed deviation that starts passing fails too, so the list stays true. The wire itself (every answer
// against our schemas and stream rules) is checked by a2a-sdk.test.ts and a2a-03-sdk.test.ts; this file proves that
// each pair of peers understands each other.
import { AgentCard, GetTaskRequest, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import * as v03 from '@agentproto/a2a/0.3';
import * as v10 from '@agentproto/a2a/1.0';
import { startReferenceAgent } from '@agentproto/a2a/reference-agent/serve';
import { JsonRpcError } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkAgent, startSdkAgent } from '../support/a2a-sdk-agent.js';

type Version = '0.3' | '1.0';
type Binding = 'JSONRPC' | 'HTTP+JSON';
type ServerName = 'ours' | 'sdk';

/** What a step saw, in words every dialect shares: a task's id and its state (`completed`, `input-required`, …). */
interface Seen {
  id: string;
  state: string;
}

/** One client, one version, one binding, pointed at one interface. */
interface Driver {
  /** The version the client ended up speaking (the SDK picks it from the card). */
  speaks: Version;
  send(text: string): Promise<Seen>;
  get(id: string): Promise<Seen>;
  /** Streams a message: the kind of the first event and the state the last one carries. */
  stream(text: string): Promise<{ first: string; last: string }>;
  /** Asks for a task nobody created: `not found` when the client reports the protocol's TaskNotFound. */
  unknown(): Promise<string>;
}

/**
 * Where a cell's step fails for a reason outside our code, with its evidence. Keys: `<client> <version> <binding> →
 * <server> > <step>`. Empty: every cell passes every step.
 */
const DEVIATIONS: Readonly<Record<string, string>> = {};

// ---------------------------------------------------------------------------------------------------------------------
// Words every dialect shares.

/** `TASK_STATE_INPUT_REQUIRED` (1.0 and ProtoJSON), `input-required` (0.3 JSON-RPC) or the SDK's enum number alike. */
function stateName(state: unknown): string {
  const name = typeof state === 'number' ? TaskState[state] : String(state);
  return (name ?? `state ${String(state)}`)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
}

/** The task inside a send's answer: 1.0 and ProtoJSON wrap it (`{task}`), 0.3 JSON-RPC tags it (`kind: 'task'`). */
function taskIn(answer: unknown): Seen {
  const value = typeof answer === 'object' && answer !== null && 'task' in answer ? answer.task : answer;
  if (typeof value !== 'object' || value === null || !('id' in value) || !('status' in value))
    throw new Error(`not a task: ${JSON.stringify(answer)}`);
  const status = value.status;
  const state = typeof status === 'object' && status !== null && 'state' in status ? status.state : undefined;
  return { id: String(value.id), state: stateName(state) };
}

/** A stream event's kind: the member it carries (1.0, ProtoJSON) or its `kind` tag (0.3 JSON-RPC). */
function eventKind(event: unknown): string {
  if (typeof event !== 'object' || event === null) return typeof event;
  if ('kind' in event) return String(event.kind).replace('status-update', 'statusUpdate');
  return Object.keys(event)[0] ?? 'empty';
}

/** The state a stream event carries, if it is a task or a status update. */
function eventState(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const inner = 'kind' in event ? event : Object.values(event)[0];
  if (typeof inner !== 'object' || inner === null || !('status' in inner)) return undefined;
  const status = inner.status;
  return typeof status === 'object' && status !== null && 'state' in status
    ? stateName(status.state)
    : undefined;
}

async function streamSummary(events: AsyncIterable<unknown> | undefined) {
  const kinds: string[] = [];
  let last = 'no state';
  for await (const event of events ?? []) {
    kinds.push(eventKind(event));
    last = eventState(event) ?? last;
    if (kinds.length > 100) break;
  }
  return { first: kinds[0] ?? 'nothing', last };
}

/** What a refused get said, in the matrix's words. */
function refusal(error: unknown): string {
  if (error instanceof TaskNotFoundError) return 'not found';
  if (error instanceof JsonRpcError)
    return error.code === -32001 ? 'not found' : `JSON-RPC error ${error.code}`;
  return `threw ${error instanceof Error ? error.message : String(error)}`;
}

// ---------------------------------------------------------------------------------------------------------------------
// The clients.

const messageId = () => crypto.randomUUID();

/** Our generated clients of each version and binding, at the interface's URL. */
function ours(version: Version, binding: Binding, url: string): Driver {
  if (version === '1.0' && binding === 'JSONRPC') {
    const rpc = v10.createA2aRpcClient({ url });
    const message = (text: string) => ({
      message: { messageId: messageId(), role: 'ROLE_USER' as const, parts: [{ text }] },
    });
    return {
      speaks: version,
      send: async (text) => taskIn(await rpc.SendMessage(message(text))),
      get: async (id) => taskIn(await rpc.GetTask({ id })),
      stream: (text) => streamSummary(rpc.SendStreamingMessage(message(text))),
      unknown: () => rpc.GetTask({ id: 'no-such-task' }).then(() => 'found', refusal),
    };
  }
  if (version === '1.0') {
    const rest = v10.createA2aClient({ baseUrl: url });
    const body = (text: string) => ({
      body: { message: { messageId: messageId(), role: 'ROLE_USER' as const, parts: [{ text }] } },
    });
    return {
      speaks: version,
      send: async (text) => taskIn(answered(await rest.sendMessage(body(text)))),
      get: async (id) => taskIn(answered(await rest.getTask({ params: { path: { id } } }))),
      stream: async (text) => streamSummary((await rest.sendStreamingMessage(body(text))).items),
      unknown: async () =>
        statusWord((await rest.getTask({ params: { path: { id: 'no-such-task' } } })).response),
    };
  }
  if (binding === 'JSONRPC') {
    const rpc = v03.createA2aRpcClient({ url });
    const message = (text: string) => ({
      message: {
        kind: 'message' as const,
        messageId: messageId(),
        role: 'user' as const,
        parts: [{ kind: 'text' as const, text }],
      },
    });
    return {
      speaks: version,
      send: async (text) => taskIn(await rpc['message/send'](message(text))),
      get: async (id) => taskIn(await rpc['tasks/get']({ id })),
      stream: (text) => streamSummary(rpc['message/stream'](message(text))),
      unknown: () => rpc['tasks/get']({ id: 'no-such-task' }).then(() => 'found', refusal),
    };
  }
  const rest = v03.createA2aClient({ baseUrl: url });
  const body = (text: string) => ({
    body: { message: { messageId: messageId(), role: 'ROLE_USER' as const, content: [{ text }] } },
  });
  return {
    speaks: version,
    send: async (text) => taskIn(answered(await rest.sendMessage(body(text)))),
    get: async (id) => taskIn(answered(await rest.getTask({ params: { path: { id } } }))),
    stream: async (text) => streamSummary((await rest.sendStreamingMessage(body(text))).items),
    unknown: async () =>
      statusWord((await rest.getTask({ params: { path: { id: 'no-such-task' } } })).response),
  };
}

/** An openapi-fetch answer's data, or its error as a thrown message. */
function answered(result: { data?: unknown; error?: unknown; response: Response }): unknown {
  if (result.data === undefined)
    throw new Error(`HTTP ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/** HTTP+JSON's TaskNotFound is a 404 (1.0 §11.6; 0.3 §3.2.3 maps it the same way). */
const statusWord = (response: Response) =>
  response.status === 404 ? 'not found' : `HTTP ${response.status}`;

/** The SDK's client, built by its factory from a card that offers only the cell's version and binding. */
async function sdk(version: Version, binding: Binding, card: CardJson): Promise<Driver> {
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
    preferredTransports: [binding],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
  });
  const only = card.supportedInterfaces.filter(
    (i) => i.protocolVersion === version && i.protocolBinding === binding,
  );
  const client: Client = await factory.createFromAgentCard(
    AgentCard.fromJSON({ ...card, supportedInterfaces: only }),
  );
  const send = (text: string) =>
    SendMessageRequest.fromJSON({
      message: { messageId: messageId(), role: 'ROLE_USER', parts: [{ text }] },
    });
  return {
    speaks: client.protocolVersion === '0.3' ? '0.3' : '1.0',
    send: async (text) => taskIn(await client.sendMessage(send(text))),
    get: async (id) => taskIn(await client.getTask(GetTaskRequest.fromJSON({ id }))),
    stream: (text) => streamSummary(sdkEvents(client.sendMessageStream(send(text)))),
    unknown: () =>
      client.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' })).then(() => 'found', refusal),
  };
}

/** The SDK's stream events as the 1.0 members they carry (`{ task }`, `{ statusUpdate }`, …). */
async function* sdkEvents(
  events: AsyncIterable<{ payload?: { $case: string; value: unknown } | undefined }>,
) {
  for await (const event of events)
    yield event.payload ? { [event.payload.$case]: event.payload.value } : { empty: true };
}

// ---------------------------------------------------------------------------------------------------------------------
// The servers, and the cells.

interface CardJson {
  supportedInterfaces: Array<{ url: string; protocolBinding: string; protocolVersion: string }>;
  [field: string]: unknown;
}

let reference: ServerType;
let sdkAgent: SdkAgent;
const cards = new Map<ServerName, CardJson>();
const quiet = console.error;

beforeAll(async () => {
  const started = await startReferenceAgent(0, { chunkDelayMs: 1, onError: () => {} });
  reference = started.server;
  // The SDK's handlers log every refusal they send (the unknown task); the refusals are what the cells ask for.
  console.error = () => {};
  sdkAgent = await startSdkAgent({ legacyCompat: true });
  for (const [name, base] of [
    ['ours', started.url],
    ['sdk', sdkAgent.base],
  ] as const) {
    const response = await fetch(`${base}/.well-known/agent-card.json`, {
      headers: { 'A2A-Version': '1.0' },
    });
    // sound: both agents' cards are checked against our 1.0 AgentCard schema in the next line.
    const card = (await response.json()) as CardJson;
    expect(v10.validators.AgentCard(card), `${name}'s card`).toBe(true);
    cards.set(name, card);
  }
});
afterAll(() => {
  console.error = quiet;
  reference?.close();
  sdkAgent?.close();
});

const cells = (['ours', 'sdk'] as const).flatMap((client) =>
  (['0.3', '1.0'] as const).flatMap((version) =>
    (['JSONRPC', 'HTTP+JSON'] as const).flatMap((binding) =>
      (['ours', 'sdk'] as const).map((server) => ({
        name: `${client} client, A2A ${version} over ${binding} → ${server} agent`,
        client,
        version,
        binding,
        server,
      })),
    ),
  ),
);

describe('e2e > the A2A interop matrix', () => {
  it('matrix > sixteen cells, each pair of peers once', () => {
    expect(new Set(cells.map((c) => JSON.stringify(c))).size).toBe(16);
  });

  it.each(cells.map((cell) => [cell.name, cell] as const))('%s', async (_, cell) => {
    const card = cards.get(cell.server);
    if (!card) throw new Error(`no card from the ${cell.server} agent`);
    const url = card.supportedInterfaces.find(
      (i) => i.protocolVersion === cell.version && i.protocolBinding === cell.binding,
    )?.url;
    if (!url)
      throw new Error(`the ${cell.server} agent's card offers no ${cell.version} ${cell.binding} interface`);
    const driver =
      cell.client === 'ours'
        ? ours(cell.version, cell.binding, url)
        : await sdk(cell.version, cell.binding, card);
    const name = `${cell.client} ${cell.version} ${cell.binding} → ${cell.server}`;
    const failed: Record<string, string> = {};
    const step = async (label: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        failed[`${name} > ${label}`] = error instanceof Error ? error.message : String(error);
      }
    };
    await step('version', async () => expect(driver.speaks).toBe(cell.version));
    let sent: Seen | undefined;
    await step('send', async () => {
      sent = await driver.send('Plan a trip to Lisbon');
      expect(sent.state).toBe('completed');
    });
    await step('get', async () => {
      if (!sent) throw new Error('nothing was sent');
      expect(await driver.get(sent.id)).toEqual(sent);
    });
    await step('stream', async () =>
      expect(await driver.stream('Plan a trip to Rome')).toEqual({ first: 'task', last: 'completed' }),
    );
    await step('unknown task', async () => expect(await driver.unknown()).toBe('not found'));
    const listed = Object.keys(DEVIATIONS).filter((key) => key.startsWith(`${name} > `));
    // The diff shows each unexpected failure with what it said, and each listed deviation that passed.
    expect(failed).toEqual(Object.fromEntries(listed.map((key) => [key, expect.any(String)])));
  });
});
