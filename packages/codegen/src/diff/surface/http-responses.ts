// The responses of an HTTP operation both sides declare, by status: a status added or gone, and the media types and
// headers of one both sides answer with. A response kept under components is pointed at where it is written.
import { escapePointerToken } from '../../diagnostics.js';
import type { OperationModel } from '../../model/protocol-model.js';
import { isRecord } from '../../util/json.js';
import { lookup, type OperationPair, operationObject, opPointer, pushHttp } from './http-pair.js';
import { responseHeaderChanges } from './http-response-headers.js';
import { contentChanges } from './media-types.js';
import { union } from './surface-finding.js';

/** Every status added or removed, and every change of the media types of a status both sides answer. */
export function responseChanges(pair: OperationPair): void {
  const { out, docs, key, name, o, n } = pair;
  const rb = new Map(o.responses.map((r) => [r.status, r]));
  const ra = new Map(n.responses.map((r) => [r.status, r]));
  for (const status of union(rb.keys(), ra.keys())) {
    const p = rb.get(status);
    const q = ra.get(status);
    const at = {
      oldPointer: responsePointer(docs.old, o, status),
      newPointer: responsePointer(docs.new, n, status),
    };
    if (!p && q)
      pushHttp(
        out,
        {
          rule: 'status-added',
          area: 'response',
          subject: name,
          message: `answers ${status} too`,
          newPointer: at.newPointer,
          oldPointer: `${opPointer(o)}/responses`,
          expect: 'receivers',
        },
        {
          witnesses: lookup(
            'receivers',
            'response',
            { status },
            `the old document declares no ${status} for ${key}`,
          ),
        },
      );
    else if (p && !q)
      pushHttp(
        out,
        {
          rule: 'status-removed',
          area: 'response',
          subject: name,
          message: `no longer answers ${status}`,
          oldPointer: at.oldPointer,
          newPointer: `${opPointer(n)}/responses`,
          expect: 'senders',
        },
        {
          witnesses: lookup(
            'senders',
            'response',
            { status },
            `the new document declares no ${status} for ${key}`,
          ),
        },
      );
    else if (p && q) {
      contentChanges(
        out,
        `${name} ${status}`,
        p.contents,
        q.contents,
        at.oldPointer,
        at.newPointer,
        'response',
      );
      responseHeaderChanges(
        pair,
        status,
        { old: responseObject(docs.old, o, status), new: responseObject(docs.new, n, status) },
        { old: at.oldPointer, new: at.newPointer },
      );
    }
  }
}

/** The response object of a status as the operation writes it (perhaps a reference to one under components). */
function responseObject(doc: Record<string, unknown>, op: OperationModel, status: string): unknown {
  const { operation } = operationObject(doc, op);
  return isRecord(operation.responses) ? operation.responses[status] : undefined;
}

function responsePointer(doc: Record<string, unknown>, op: OperationModel, status: string): string {
  const { operation } = operationObject(doc, op);
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const response = responses[status];
  // A response kept under components is where its media types are written.
  if (isRecord(response) && typeof response.$ref === 'string' && response.$ref.startsWith('#/'))
    return response.$ref.slice(1);
  return `/paths/${escapePointerToken(op.path)}/${op.method}/responses/${escapePointerToken(status)}`;
}
