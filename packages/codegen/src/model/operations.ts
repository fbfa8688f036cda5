// Operations (OpenAPI 3.1 Paths and Operation Objects, §4.8.8–4.8.10): one per path and method, sorted by
// operationId, each with its parameters, request body and responses. Response keys are kept as written: an exact
// status, a range (`2XX`) or `default`, sorted.
import { HTTP_METHODS } from '../util/http-methods.js';
import { isRecord } from '../util/json.js';
import { contentsOf } from './contents.js';
import { parametersOf } from './parameters.js';
import type { OperationModel, ResponseModel } from './protocol-model.js';
import type { ModelContext } from './references.js';

/** Every operation of the document, sorted by operationId. */
export function operationsOf(ctx: ModelContext): OperationModel[] {
  const operations: OperationModel[] = [];
  for (const [p, rawItem] of Object.entries(isRecord(ctx.doc.paths) ? ctx.doc.paths : {})) {
    const item = isRecord(rawItem) ? rawItem : {};
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const params = [...asArray(item.parameters), ...asArray(op.parameters)];
      const operation: OperationModel = {
        operationId: String(op.operationId),
        method,
        path: p,
        summary: String(op.summary ?? ''),
        pathParams: parametersOf(ctx, params, 'path'),
        queryParams: parametersOf(ctx, params, 'query'),
        responses: responsesOf(ctx, op.responses),
      };
      const body = ctx.deref(op.requestBody);
      if (isRecord(body))
        operation.requestBody = { required: body.required === true, contents: contentsOf(ctx, body.content) };
      operations.push(operation);
    }
  }
  return operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** An operation's responses (OpenAPI 3.1 Responses Object, §4.8.16), sorted by key. */
function responsesOf(ctx: ModelContext, responses: unknown): ResponseModel[] {
  return Object.entries(isRecord(responses) ? responses : {})
    .map(([status, r]) => {
      const res = ctx.deref(r);
      return {
        status,
        description: isRecord(res) ? String(res.description ?? '') : '',
        contents: contentsOf(ctx, isRecord(res) ? res.content : undefined),
      };
    })
    .sort((a, b) => a.status.localeCompare(b.status));
}

function asArray(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}
