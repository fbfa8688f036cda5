// The error codes of a JSON-RPC method both sides declare, and those a document declares for every method: one the
// old document does not declare is news to its clients; one gone is out of the new one. A method's are proven by a
// lookup (an error response with that code); the document's by an error response both documents' validators judge.
import type { DiffSide } from '../diff-types.js';
import type { Location } from '../schema/found-change.js';
import { set } from '../schema/mutations.js';
import { documentErrors } from './rpc-method-table.js';
import { type MethodPair, pushRpc } from './rpc-pair.js';
import { type Findings, type Pair, union } from './surface-finding.js';

/** Every error code added or removed. */
export function errorChanges(pair: MethodPair): void {
  const { out, name, o, n } = pair;
  for (const code of union(o.errors.keys(), n.errors.keys())) {
    const e = o.errors.get(code);
    const f = n.errors.get(code);
    if (e && f) continue;
    const added = !e;
    // The code came from one side's errors, so `declared` is always there.
    const declared = f ?? e;
    if (!declared) continue;
    pushRpc(
      out,
      {
        rule: added ? 'error-added' : 'error-removed',
        area: 'method',
        subject: name,
        message: `error ${code} (${declared.message}) is ${added ? 'new' : 'gone'}`,
        oldPointer: e?.pointer ?? o.pointer,
        newPointer: f?.pointer ?? n.pointer,
        expect: added ? 'receivers' : 'senders',
      },
      [
        {
          breaks: added ? 'receivers' : 'senders',
          subject: 'response',
          message: { jsonrpc: '2.0', id: 1, error: { code, message: declared.message } },
          rejection: `the ${added ? 'old' : 'new'} document declares no error ${code} for ${name}`,
        },
      ],
    );
  }
}

/**
 * Every error code added to or removed from those the document declares for any method (`components.errors`). Its
 * witness is an error response with that code, checked against both documents' error responses (whose `error.code`
 * is one of the codes each declares), so it goes through the same search and validators as a schema change's.
 */
export function documentErrorChanges(sides: Pair<DiffSide>, out: Findings): void {
  const before = documentErrors(sides.old);
  const after = documentErrors(sides.new);
  const schema = { old: errorResponse([...before.keys()]), new: errorResponse([...after.keys()]) };
  const location: Location = {
    steps: [{ token: 'error', old: schema.old.properties.error, new: schema.new.properties.error }],
    old: schema.old.properties.error,
    new: schema.new.properties.error,
  };
  for (const code of union(before.keys(), after.keys())) {
    const e = before.get(code);
    const f = after.get(code);
    if (e && f) continue;
    const declared = f ?? e;
    if (!declared) continue;
    const added = !e;
    out.push({
      found: {
        rule: added ? 'error-added' : 'error-removed',
        area: 'method',
        subject: ANY_METHOD,
        message: `error ${code} (${declared.message}), which any method may answer, is ${added ? 'new' : 'gone'}`,
        oldPointer: e?.pointer ?? '/components/errors',
        newPointer: f?.pointer ?? '/components/errors',
        expect: added ? 'receivers' : 'senders',
        location,
        keywords: ['enum'],
        mutations: [set(added ? 'new' : 'old', { code, message: declared.message })],
      },
      document: 'openrpc',
      subject: { name: 'error response', schema },
    });
  }
}

/** How the report names what an error code the document declares for every method belongs to. */
export const ANY_METHOD = 'any method';

/** A JSON-RPC 2.0 error response whose code is one of `codes`. */
function errorResponse(codes: number[]) {
  return {
    type: 'object',
    required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer', enum: codes }, message: { type: 'string' } },
      },
    },
  };
}
