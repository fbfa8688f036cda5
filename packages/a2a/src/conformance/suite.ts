// The A2A 1.0 conformance suite (and of every version `agentproto version add` makes from it). The kit (@agentproto/conformance) runs it against a live agent: the card first, then
// each binding the card declares (HTTP+JSON, JSON-RPC) through messaging, tasks, listing and versions, each check
// written once for both bindings; then what JSON-RPC adds of its own. The generated binding loads it only for a
// conformance run.
import { CheckSkipped, followUp, type Suite, type SuiteContext } from '@agentproto/runtime/contract';
import {
  BINDINGS,
  type BindingChecks,
  type BindingSpec,
  JSON_RPC,
  type Speaking,
  speaking,
} from './bindings.js';
import { cardChecks, cardDefinitions } from './card.js';
import { extendedCardChecks, extendedCardDefinitions } from './extended-card.js';
import { httpJsonBinding } from './http-json-binding.js';
import { jsonRpcChecks, jsonRpcDefinitions } from './json-rpc.js';
import { jsonRpcBinding } from './json-rpc-binding.js';
import { listingChecks, listingDefinitions } from './listing.js';
import { messagingChecks, messagingDefinitions } from './messaging.js';
import { pushChecks, pushDefinitions, pushKit } from './push.js';
import { taskChecks, taskDefinitions } from './tasks.js';
import { translatedHttpJsonBinding, translatedJsonRpcBinding } from './translated-bindings.js';
import { versionChecks, versionDefinitions } from './version.js';

/** The checks of one binding, served at `path` (undefined: the card declares none, and they are skipped). */
function bindingChecks(
  context: SuiteContext,
  speaks: Speaking,
  spec: BindingSpec,
  path: string | undefined,
): BindingChecks {
  // A version served through a translation is driven through its codecs: the same checks, its own wire.
  const make = speaks.translator
    ? spec.prefix === 'rest'
      ? translatedHttpJsonBinding
      : translatedJsonRpcBinding
    : spec.prefix === 'rest'
      ? httpJsonBinding
      : jsonRpcBinding;
  const binding = path === undefined ? undefined : make(context, speaks, spec, path);
  const id = (name: string) => `a2a.${spec.prefix}.${name}`;
  return {
    check: (name, fn) =>
      context.check(id(name), () => {
        if (!binding) throw new CheckSkipped(`the card claims no ${spec.protocolBinding} interface`);
        return fn(binding);
      }),
    after: (name, learned, reason) => followUp(context, id(name), learned, reason),
  };
}

/**
 * Every check one binding runs, in the order it runs them. A version served through a translation has no ListTasks
 * and no version header (0.3): those checks are not its (its requirements.yaml says so).
 */
const bindingDefinitions = (speaks: Speaking) => (spec: BindingSpec) => [
  ...messagingDefinitions(spec),
  ...taskDefinitions(spec),
  // Push runs natively only: a translated version's webhook would get the handler version's StreamResponses. The
  // extended card is checked natively too: a translated version reads the same card through its own route.
  ...(speaks.translator
    ? []
    : [
        ...listingDefinitions(spec),
        ...versionDefinitions(spec),
        ...pushDefinitions(spec),
        ...extendedCardDefinitions(spec),
      ]),
];

/** The suite of `version`, a version the package lists. */
export function createSuite(version: string): Suite {
  const speaks = speaking(version);
  return {
    protocol: 'a2a',
    checks: [
      ...cardDefinitions(speaks),
      ...BINDINGS.flatMap(bindingDefinitions(speaks)),
      ...jsonRpcDefinitions(),
      {
        id: 'a2a.wire.schemas',
        level: 'MUST',
        title: 'every answer and event matches its schema',
        ref: `schemas/a2a/${version}`,
        covers: ['wire.schemas'],
      },
    ],
    // The schema-driven checks speak the suite's version too: without the header an agent may take them for 0.3
    // clients.
    requestHeaders: speaks.headers,
    // The card is the first request: every other check drives the interfaces it declares.
    probe: { check: 'a2a.card', request: 'GET /.well-known/agent-card.json' },
    async run(context) {
      const { declared, extendedCard } = await cardChecks(context, speaks);
      const rest = declared.get('HTTP+JSON');
      const rpc = declared.get('JSONRPC');
      // The schema-driven checks send to both bindings, where the card says they are.
      context.surfaceAt(rest ?? null);
      context.surfaceAt(rpc === undefined ? null : rpc || '/', 'json-rpc');
      // The push checks' webhook receiver, on 127.0.0.1, started when the first of them needs it.
      const push = pushKit(context);
      try {
        for (const spec of BINDINGS) {
          const on = bindingChecks(context, speaks, spec, declared.get(spec.protocolBinding));
          const sent = await messagingChecks(on);
          await taskChecks(on, sent);
          if (speaks.translator) continue;
          await listingChecks(on, sent);
          await versionChecks(on);
          await pushChecks(on, push);
          await extendedCardChecks(on, extendedCard);
        }
      } finally {
        await push.close();
      }
      await jsonRpcChecks(context, bindingChecks(context, speaks, JSON_RPC, rpc));
    },
  };
}
