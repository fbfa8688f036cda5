// The parameters step of the JSON-RPC binding: one request object checked (JSON-RPC 2.0 §4: the envelope, the id, the
// method) and its params taken by name or by position and checked by the method's schema (-32602 with every issue).
import { clashMessage, readProtoNames } from '../body/proto-names.js';
import type { RpcId, RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { RPC_ERROR_CODES, type RpcErrorObject } from '../jsonrpc/rpc-error.js';
import { isObjectLike } from '../unknown-values.js';
import { describeErrors, type ValidationIssue, type Validator } from '../validation.js';
import { type RpcErrors, rpcResponse } from './rpc-answer.js';
import type { Step } from './step.js';

/** A request ready to call: its method, its params by name, and the id to answer (undefined for a notification). */
export interface RpcCall {
  spec: RpcMethodSpec;
  params: unknown;
  id: RpcId | undefined;
}

/** What the JSON-RPC steps leave for each other, one object per HTTP request. */
export interface RpcState {
  /** The body, read as JSON (readBodyStep). */
  body: unknown;
  /** The one request of a body that is not a batch, checked (checkRpcRequest). */
  call: RpcCall | undefined;
}

/** A request object worked out: ready to call, or refused with the id to answer (undefined: no answer). */
export type Prepared = ({ ok: true } & RpcCall) | { ok: false; id: RpcId | undefined; error: RpcErrorObject };

/** Works out one request object against the methods served. */
export function prepareRequest(
  methods: ReadonlyMap<string, RpcMethodSpec>,
  errors: RpcErrors,
): (raw: unknown) => Prepared {
  return (req) => {
    if (!isObjectLike(req) || Array.isArray(req))
      return {
        ok: false,
        id: null,
        error: errors.fail({
          code: RPC_ERROR_CODES.invalidRequest,
          message: 'Invalid Request: not a request object',
        }),
      };
    const id = req.id;
    const validId =
      id === undefined ||
      id === null ||
      typeof id === 'string' ||
      (typeof id === 'number' && Number.isFinite(id));
    const answerId: RpcId | undefined = validId ? id : null;
    if (req.jsonrpc !== '2.0' || typeof req.method !== 'string' || !validId)
      return {
        ok: false,
        // An invalid request is answered even without an id: the server cannot tell it was meant as a notification.
        id: answerId ?? null,
        error: errors.fail({
          code: RPC_ERROR_CODES.invalidRequest,
          message: 'Invalid Request: expected {"jsonrpc":"2.0","method":…} with a string, number or null id',
        }),
      };
    const spec = methods.get(req.method);
    if (!spec)
      return {
        ok: false,
        id: answerId,
        error: errors.fail({
          code: RPC_ERROR_CODES.methodNotFound,
          message: `Method not found: ${req.method}`,
          method: req.method,
        }),
      };
    const invalidParams = (message: string, issues?: readonly ValidationIssue[]): Prepared => ({
      ok: false,
      id: answerId,
      error: errors.fail({
        code: RPC_ERROR_CODES.invalidParams,
        message,
        method: spec.name,
        ...(issues ? { issues } : {}),
      }),
    });
    let params = req.params;
    if (params === undefined) params = {};
    else if (Array.isArray(params)) {
      if (spec.paramStructure === 'by-name')
        return invalidParams(`Invalid params: ${spec.name} takes its params by name, as an object`);
      if (params.length > spec.paramNames.length)
        return invalidParams(`Invalid params: ${spec.name} takes at most ${spec.paramNames.length} params`);
      params = Object.fromEntries(params.map((v, i) => [spec.paramNames[i], v]));
    } else if (typeof params !== 'object' || params === null || spec.paramStructure === 'by-position')
      return invalidParams(
        `Invalid params: ${spec.name} takes its params ${spec.paramStructure === 'by-position' ? 'by position, as an array' : 'as an object or an array'}`,
      );
    if (spec.protoNames) {
      // ProtoJSON: a field may come under its proto name (read under its JSON name), not under both.
      const clash = readProtoNames(params, spec.protoNames);
      if (clash)
        return invalidParams(`Invalid params: the params object ${clashMessage(clash)}`, [
          { pointer: clash.pointer, message: clashMessage(clash), keyword: 'protoJson' },
        ]);
    }
    const issues = issuesOf(spec.params, params);
    if (issues) return invalidParams('Invalid params', issues);
    return { ok: true, spec, params, id: answerId };
  };
}

/**
 * Checks the one request of `state.body` into `state.call`; a refused request is answered with its error, or with
 * no content for a notification.
 */
export function checkRpcRequest(prepare: (raw: unknown) => Prepared): Step<RpcState> {
  return (c, state) => {
    const prepared = prepare(state.body);
    if (!prepared.ok)
      return prepared.id === undefined
        ? c.body(null, 204)
        : rpcResponse({ id: prepared.id, error: prepared.error });
    state.call = prepared;
    return undefined;
  };
}

/** A value's problems under a validator, or undefined when it is valid (a refusal without errors still counts). */
export function issuesOf(validate: Validator, value: unknown): readonly ValidationIssue[] | undefined {
  if (validate(value)) return undefined;
  const issues = describeErrors(validate.errors);
  return issues.length > 0 ? issues : [{ pointer: '', message: 'is invalid', keyword: 'false schema' }];
}
