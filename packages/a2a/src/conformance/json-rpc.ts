// What the JSON-RPC binding adds of its own (specification §9.5; JSON-RPC 2.0 §5.1): the standard errors for an
// unknown method, a body that is not JSON, and params that break their schema.
import { type BindingChecks, type SendParams, SPEC } from './bindings.js';
import { expectRpcError, jsonRpc } from './json-rpc-binding.js';

/** JSON-RPC's own checks. */
export const jsonRpcDefinitions = () => [
  {
    id: 'a2a.rpc.method-not-found',
    level: 'MUST' as const,
    title: 'an unknown method is -32601',
    ref: `${SPEC} §9.5; JSON-RPC 2.0 §5.1`,
    covers: ['rpc.method-not-found'],
  },
  {
    id: 'a2a.rpc.parse-error',
    level: 'MUST' as const,
    title: 'a body that is not JSON is -32700',
    ref: `${SPEC} §9.5; JSON-RPC 2.0 §5.1`,
    covers: ['rpc.parse-error'],
  },
  {
    id: 'a2a.rpc.invalid-params',
    level: 'SHOULD' as const,
    title: 'params that break their schema are -32602',
    ref: `${SPEC} §9.5, §5.7`,
    covers: ['rpc.invalid-params'],
  },
];

/** Sends an unknown method, a cut-off body and a message without parts, over the JSON-RPC binding's checks. */
export async function jsonRpcChecks(
  context: Parameters<typeof jsonRpc>[0],
  { check }: BindingChecks,
): Promise<void> {
  await check('method-not-found', async (b) => {
    expectRpcError(await jsonRpc(context, b.speaking, b.path).call('NoSuchMethod', {}), -32601);
    return undefined;
  });
  await check('parse-error', async (b) => {
    const x = await context.session.call('POST', b.path, {
      body: '{"jsonrpc": "2.0", "method":',
      headers: { ...b.speaking.headers, 'content-type': 'application/json' },
      expect: { '*': b.speaking.types.rpcError },
    });
    expectRpcError(x, -32700);
    return undefined;
  });
  await check('invalid-params', async (b) => {
    // A message without id or parts, deliberately against the schema; sent through the binding, so a translated
    // version sends its own method and shapes.
    // sound: deliberately not a SendParams, the check being that the agent refuses it; the binding only sends it on
    // (a translated version's through the codecs, which take any JSON value).
    const invalid = { message: { role: 'ROLE_USER' } } as SendParams;
    expectRpcError(await b.call('SendMessage', invalid), -32602);
    return undefined;
  });
}
