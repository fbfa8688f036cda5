// The error codes of a JSON-RPC method both sides declare: one the old document does not declare is news to its
// clients; one gone is out of the new one. Each is proven by a lookup (an error response with that code).
import { type MethodPair, pushRpc } from './rpc-pair.js';
import { union } from './surface-finding.js';

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
