// The HTTP surface: the operations of the two sides' OpenAPI documents, matched by method and path (whatever the path
// parameters are called). An operation added or gone is reported here; one both sides declare is handed to the parts
// that compare its parameters, request body and responses, in that order.
import { operationsOf } from '../../model/operations.js';
import type { OperationModel } from '../../model/protocol-model.js';
import { documentContext } from '../../model/references.js';
import type { DiffSide } from '../diff-types.js';
import { lookup, opPointer, pushHttp } from './http-pair.js';
import { parameterChanges } from './http-parameters.js';
import { requestBodyChanges } from './http-request-body.js';
import { responseChanges } from './http-responses.js';
import { type Findings, type Pair, union } from './surface-finding.js';
import { documentOf, typeModels } from './type-models.js';

/** `POST /tasks/{}`: an operation's identity, whatever its path parameters are called. */
function routeKey(op: OperationModel): string {
  const segments = op.path.split('/').map((segment) => segment.replace(/^\{[^{}]*\}/, '{}'));
  return `${op.method.toUpperCase()} ${segments.join('/')}`;
}

/** Every change between the two sides' OpenAPI documents, operation by operation. */
export function httpChanges(sides: Pair<DiffSide>, out: Findings): void {
  const docs = {
    old: documentOf(sides.old.openapi),
    new: documentOf(sides.new.openapi),
  };
  const ctx = {
    old: documentContext(docs.old, typeModels(sides.old)),
    new: documentContext(docs.new, typeModels(sides.new)),
  };
  const ops = {
    old: new Map(operationsOf(ctx.old).map((o) => [routeKey(o), o])),
    new: new Map(operationsOf(ctx.new).map((o) => [routeKey(o), o])),
  };
  for (const key of union(ops.old.keys(), ops.new.keys())) {
    const o = ops.old.get(key);
    const n = ops.new.get(key);
    if (!o && n) {
      pushHttp(
        out,
        {
          rule: 'operation-added',
          area: 'operation',
          subject: `${n.method.toUpperCase()} ${n.path}`,
          message: `${n.method.toUpperCase()} ${n.path} is new`,
          newPointer: opPointer(n),
          expect: 'receivers',
        },
        {
          witnesses: lookup(
            'receivers',
            'request',
            { method: n.method.toUpperCase(), path: n.path },
            `the old document declares no ${key}`,
          ),
        },
      );
      continue;
    }
    if (o && !n) {
      pushHttp(
        out,
        {
          rule: 'operation-removed',
          area: 'operation',
          subject: `${o.method.toUpperCase()} ${o.path}`,
          message: `${o.method.toUpperCase()} ${o.path} is gone`,
          oldPointer: opPointer(o),
          expect: 'senders',
        },
        {
          witnesses: lookup(
            'senders',
            'request',
            { method: o.method.toUpperCase(), path: o.path },
            `the new document declares no ${key}`,
          ),
        },
      );
      continue;
    }
    if (!o || !n) continue;
    const pair = { out, docs, ctx, key, name: `${n.method.toUpperCase()} ${n.path}`, o, n };
    parameterChanges(pair);
    requestBodyChanges(pair);
    responseChanges(pair);
  }
}
