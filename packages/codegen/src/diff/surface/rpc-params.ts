// The params of a JSON-RPC method both sides declare, by name: one added or gone, made required or optional (each
// proven by a lookup when it breaks someone), and the schema of one both sides have.
import { type MethodPair, pushRpc } from './rpc-pair.js';
import { schemaFindings, union } from './surface-finding.js';

/** Every param added, removed, made required or optional, or whose schema changed. */
export function paramChanges(pair: MethodPair): void {
  const { out, name, o, n } = pair;
  for (const param of union(o.params.keys(), n.params.keys())) {
    const p = o.params.get(param);
    const q = n.params.get(param);
    const expect: 'receivers' | 'senders' | 'none' = !p
      ? q?.required
        ? 'senders'
        : 'none'
      : !q
        ? p.required
          ? 'receivers'
          : 'none'
        : p.required === q.required
          ? 'none'
          : q.required
            ? 'senders'
            : 'receivers';
    if (!p || !q || p.required !== q.required)
      pushRpc(
        out,
        {
          rule: !p ? 'param-added' : !q ? 'param-removed' : q.required ? 'param-required' : 'param-optional',
          area: 'method',
          subject: name,
          message: `param \`${param}\` ${!p ? `is new${q?.required ? ' and required' : ''}` : !q ? 'is gone' : q.required ? 'is now required' : 'is no longer required'}`,
          oldPointer: p?.pointer ?? o.pointer,
          newPointer: q?.pointer ?? n.pointer,
          expect,
        },
        expect === 'none'
          ? undefined
          : [
              {
                breaks: expect,
                subject: 'params',
                message: {},
                rejection: `the ${expect === 'senders' ? 'new' : 'old'} document requires the param ${param}`,
              },
            ],
      );
    if (p && q)
      schemaFindings(
        out,
        'openrpc',
        `${name} param ${param}`,
        'method',
        p.schema,
        q.schema,
        `${p.pointer}/schema`,
        `${q.pointer}/schema`,
      );
  }
}
