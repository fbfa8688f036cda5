// A client under test for `agentproto conformance --client`: the official A2A SDK's client (@a2a-js/sdk, pinned),
// built by its ClientFactory from the card with its JSON-RPC and REST transports (with legacyCompat, so a 0.3 card
// gets its 0.3 compat transports), doing what each client scenario asks.
// Usage: tsx test/support/clients/a2a-sdk-client.ts <agent-url>, with AGENTPROTO_SCENARIO naming the scenario.
import { SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';

const STREAMING = new Set(['stream-ends-early', 'unknown-event']);

const url = process.argv.at(-1) ?? '';
const scenario = process.env.AGENTPROTO_SCENARIO ?? '';
const legacyCompat = { enabled: true };
try {
  const client = await new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
    preferredTransports: ['JSONRPC'],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
  }).createFromUrl(url);
  const request = SendMessageRequest.fromJSON({
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  });
  if (STREAMING.has(scenario)) {
    for await (const event of client.sendMessageStream(request))
      console.log(JSON.stringify(event).slice(0, 200));
  } else console.log(JSON.stringify(await client.sendMessage(request)).slice(0, 200));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
