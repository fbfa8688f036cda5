// The two bindings of a version the package serves through a translation (0.3), as the checks drive them: the checks
// call 1.0's operations with 1.0's shapes, and the binding sends the version's own method or route with the request
// translated down, reads the answer with the version's own schemas, and gives the checks the answer translated up.
// So every check written for 1.0 runs over the older wire unchanged, and the wire is checked as the older version.
import {
  CheckFailure,
  CheckSkipped,
  expectBody,
  expectRpcResult,
  expectStatus,
  type SuiteContext,
} from '@agentproto/runtime/contract';
import type { Translator } from '@agentproto/runtime/translate';
import { A2A_ERRORS } from '../errors/a2a-errors.js';
import type { Answer, Binding, BindingSpec, Operation, Operations, Speaking } from './bindings.js';
import { expectRpcError, jsonRpc } from './json-rpc-binding.js';

/** A translated version's table, looked up by the 1.0 name the checks use. */
function byTarget<R extends { to: string }>(rules: Readonly<Record<string, R>>) {
  const out = new Map<string, R & { from: string }>();
  for (const [from, rule] of Object.entries(rules))
    if (!out.has(rule.to)) out.set(rule.to, { ...rule, from });
  return out;
}

const needTranslator = (speaking: Speaking): Translator => {
  if (!speaking.translator) throw new Error(`A2A ${speaking.version} is not served through a translation`);
  return speaking.translator;
};

/** A result the version's own schema passed (`type`), translated up to what the checks read. */
function translatedUp(speaking: Speaking, value: unknown, type: string | undefined) {
  return type === undefined ? value : needTranslator(speaking).codec(type).up(value);
}

/** JSON-RPC of a translated version: each operation the method the table maps to it, errors by code alone. */
export function translatedJsonRpcBinding(
  context: SuiteContext,
  speaking: Speaking,
  spec: BindingSpec,
  endpoint: string,
): Binding {
  const translator = needTranslator(speaking);
  const methods = byTarget(translator.table.methods);
  const client = jsonRpc(context, speaking, endpoint);
  const rule = (operation: string) => {
    const r = methods.get(operation);
    if (!r) throw new CheckSkipped(`A2A ${speaking.version} has no method for ${operation}`);
    return r;
  };
  const down = (type: string | undefined, params: unknown) =>
    type === undefined ? params : translator.codec(type).down(params);
  return {
    spec,
    speaking,
    path: endpoint || '/',
    async call(operation, params, headers) {
      const r = rule(operation);
      return { ...(await client.call(r.from, down(r.params, params), headers)), operation };
    },
    stream(params) {
      const r = rule('SendStreamingMessage');
      return client.stream(r.from, down(r.params, params));
    },
    result<T>(x: Answer): T {
      const type = rule(x.operation).result;
      const result = expectRpcResult(x, type ? { type, validate: speaking.validators[type] } : undefined);
      // sound: T is the 1.0 result of the operation the checks called, and the codec turns the version's result
      // (checked against its own schema just above) into it.
      return translatedUp(speaking, result, type) as T;
    },
    // The older version names an error by its code only (no ErrorInfo in `data`).
    expectError: (x, reason) => expectRpcError(x, A2A_ERRORS[reason].code),
  };
}

/** Where each operation the checks call lives in a translated version's HTTP surface, and its request. */
type Route = (p: Record<string, unknown>, base: string) => [string, string];
const ROUTES_03: Partial<Record<Operation, Route>> = {
  SendMessage: (_p, base) => ['POST', `${base}/v1/message:send`],
  GetTask: (p, base) => [
    'GET',
    `${base}/v1/tasks/${encodeURIComponent(String(p.id))}${p.historyLength === undefined ? '' : `?historyLength=${p.historyLength}`}`,
  ],
  CancelTask: (p, base) => ['POST', `${base}/v1/tasks/${encodeURIComponent(String(p.id))}:cancel`],
  SubscribeToTask: (p, base) => ['GET', `${base}/v1/tasks/${encodeURIComponent(String(p.id))}:subscribe`],
};

/**
 * HTTP+JSON of a translated version: each operation its route (the table says which 1.0 operation each serves and
 * the body and answer types), errors as a status with the version's error body.
 */
export function translatedHttpJsonBinding(
  { session }: SuiteContext,
  speaking: Speaking,
  spec: BindingSpec,
  base: string,
): Binding {
  const translator = needTranslator(speaking);
  const operations = byTarget(translator.table.operations);
  const camel = (operation: string) => `${operation[0]?.toLowerCase() ?? ''}${operation.slice(1)}`;
  const rule = (operation: Operation) => {
    const r = operations.get(camel(operation));
    const route = ROUTES_03[operation];
    if (!r || !route) throw new CheckSkipped(`A2A ${speaking.version} has no route for ${operation}`);
    return { ...r, route };
  };
  return {
    spec,
    speaking,
    path: base,
    async call<O extends Operation>(operation: O, params: Operations[O], headers = speaking.headers) {
      const r = rule(operation);
      // sound: an operation's params are a JSON object (every Operations entry is an object type), which the route
      // reads by field name.
      const [method, path] = r.route(params as unknown as Record<string, unknown>, base);
      const body = r.body === undefined ? undefined : translator.codec(r.body).down(params);
      const x = await session.call(method, path, {
        ...(method === 'POST' ? { json: body ?? {} } : {}),
        headers,
        // A success may be 201 as well (0.3's HTTP+JSON declares it: @a2a-js/sdk answers send and create with it).
        expect: { ...(r.result ? { 200: r.result, 201: r.result } : {}), '*': speaking.types.restError },
      });
      return { ...x, operation };
    },
    stream(params) {
      const r = rule('SendMessage');
      const body = r.body === undefined ? params : translator.codec(r.body).down(params);
      return session.stream('POST', `${base}/v1/message:stream`, 'sse', {
        json: body,
        headers: speaking.headers,
      });
    },
    // A success may be 201 as well (see `call`); the kit checked the body against the version's result type.
    // sound: T is the 1.0 result of the operation the checks called, which the codec makes of the version's result.
    result: <T>(x: Answer) =>
      translatedUp(speaking, expectBody(x, [200, 201]), rule(x.operation).result) as T,
    expectError(x, reason) {
      expectStatus(x, A2A_ERRORS[reason].http, reason);
      const code =
        typeof x.body === 'object' && x.body !== null && 'code' in x.body ? x.body.code : undefined;
      if (code !== undefined && code !== A2A_ERRORS[reason].code)
        throw new CheckFailure(
          `${x.label}: the error's code is ${JSON.stringify(code)}, expected ${A2A_ERRORS[reason].code}`,
        );
    },
  };
}
