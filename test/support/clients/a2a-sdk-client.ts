// A client under test for `agentproto conformance --client`: the official A2A SDK's client (@a2a-js/sdk, pinned),
// built by its ClientFactory from the card with its JSON-RPC and REST transports (with legacyCompat, so a 0.3 card
// gets its 0.3 compat transports), preferring JSON-RPC or, given `rest`, HTTP+JSON, doing what each client scenario
// asks (a stream for the stream scenarios, one message otherwise).
// Usage: tsx test/support/clients/a2a-sdk-client.ts [rest] <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';

const url = process.argv.at(-1) ?? '';
const rest = process.argv.length > 3 && process.argv.at(-2) === 'rest';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
/** A scenario about streams or their events is met with a stream; any other with one message. */
const streaming = scenario.includes('stream') || scenario.includes('event');
/** How many messages to send: every-enum-value reads a task in each state, one message each. */
const sends = scenario === 'every-enum-value' ? 6 : 1;
const legacyCompat = { enabled: true };
try {
  const client = await new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
    preferredTransports: [rest ? 'HTTP+JSON' : 'JSONRPC'],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
  }).createFromUrl(url);
  const request = SendMessageRequest.fromJSON({
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  });
  if (streaming) {
    for await (const event of client.sendMessageStream(request))
      console.log(JSON.stringify(event).slice(0, 200));
  } else
    for (let i = 0; i < sends; i++)
      console.log(JSON.stringify(await client.sendMessage(request)).slice(0, 200));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
