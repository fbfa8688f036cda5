// The JSON-RPC surface: the methods of the two sides' OpenRPC documents, by name. A method added or gone is reported
// here, and so is how one both sides declare answers (its result schema, a stream or one result); its params and
// error codes are compared by their own parts, in the order params, result, errors, stream. The error codes the
// documents declare for every method come last.
import type { DiffSide } from '../diff-types.js';
import { documentErrorChanges, errorChanges } from './rpc-errors.js';
import { methodTable } from './rpc-method-table.js';
import { pushRpc } from './rpc-pair.js';
import { paramChanges } from './rpc-params.js';
import { type Findings, type Pair, schemaFindings, union } from './surface-finding.js';

/** Every change between the two sides' OpenRPC documents, method by method. */
export function rpcChanges(sides: Pair<DiffSide>, out: Findings): void {
  const before = methodTable(sides.old);
  const after = methodTable(sides.new);
  for (const name of union(before.keys(), after.keys())) {
    const o = before.get(name);
    const n = after.get(name);
    if (!o || !n) {
      const added = !o;
      pushRpc(
        out,
        {
          rule: added ? 'method-added' : 'method-removed',
          area: 'method',
          subject: name,
          message: `${name} is ${added ? 'new' : 'gone'}`,
          ...(o ? { oldPointer: o.pointer } : {}),
          ...(n ? { newPointer: n.pointer } : {}),
          expect: added ? 'receivers' : 'senders',
        },
        [
          {
            breaks: added ? 'receivers' : 'senders',
            subject: 'request',
            message: { jsonrpc: '2.0', method: name },
            rejection: `the ${added ? 'old' : 'new'} document declares no method ${name}`,
          },
        ],
      );
      continue;
    }
    const pair = { out, name, o, n };
    paramChanges(pair);
    schemaFindings(
      out,
      'openrpc',
      `${name} result`,
      'method',
      o.result,
      n.result,
      `${o.pointer}/result/schema`,
      `${n.pointer}/result/schema`,
    );
    errorChanges(pair);
    if (o.stream !== n.stream)
      pushRpc(
        out,
        {
          rule: 'stream-changed',
          area: 'method',
          subject: name,
          message: `answers ${n.stream ? `with a stream (${n.stream})` : 'with one result'} instead of ${o.stream ? `a stream (${o.stream})` : 'one result'}`,
          oldPointer: o.pointer,
          newPointer: n.pointer,
          expect: 'both',
        },
        [
          {
            breaks: 'receivers',
            subject: 'response',
            message: { framing: n.stream ?? 'application/json' },
            rejection: `the old document says ${o.stream ?? 'application/json'}`,
          },
          {
            breaks: 'senders',
            subject: 'response',
            message: { framing: o.stream ?? 'application/json' },
            rejection: `the new document says ${n.stream ?? 'application/json'}`,
          },
        ],
      );
  }
  documentErrorChanges(sides, out);
}
