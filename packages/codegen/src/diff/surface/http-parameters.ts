// The parameters of an HTTP operation both sides declare: path parameters by position (a renamed one is the same
// place in the URL), query parameters and headers by name (a header's in lower case: HTTP does not tell case apart).
import { parametersOf } from '../../model/parameters.js';
import type { OperationModel } from '../../model/protocol-model.js';
import { lookup, type OperationPair, operationObject, opPointer, pushHttp } from './http-pair.js';
import { schemaFindings, union } from './surface-finding.js';

/** Every parameter added, removed, made required or optional, or whose schema changed. */
export function parameterChanges(pair: OperationPair): void {
  const { out, docs, ctx, name, o, n } = pair;
  // The model keeps an operation's path and query parameters: its headers are read from the document.
  const headers = (side: 'old' | 'new', op: OperationModel) => {
    const { item, operation } = operationObject(docs[side], op);
    const listed = [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...(Array.isArray(operation.parameters) ? operation.parameters : []),
    ];
    return parametersOf(ctx[side], listed, 'header').map((h) => ({ ...h, name: h.name.toLowerCase() }));
  };
  for (const where of ['path', 'query', 'header'] as const) {
    const at = (side: 'old' | 'new', op: OperationModel) =>
      where === 'path' ? op.pathParams : where === 'query' ? op.queryParams : headers(side, op);
    const before = new Map(at('old', o).map((p) => [p.name, p]));
    const after = new Map(at('new', n).map((p) => [p.name, p]));
    const what = where === 'query' ? 'query parameter' : 'header';
    const sent = where === 'query' ? { query: {} } : { headers: {} };
    if (where === 'path') {
      // A renamed path parameter is the same place in the URL: only its schema can matter.
      const b = [...before.values()];
      const a = [...after.values()];
      b.forEach((p, i) => {
        const q = a[i];
        if (q)
          schemaFindings(
            out,
            'openapi',
            `${name} path parameter ${q.name}`,
            'parameter',
            p.schema,
            q.schema,
            `${opPointer(o)}/parameters`,
            `${opPointer(n)}/parameters`,
          );
      });
      continue;
    }
    for (const param of union(before.keys(), after.keys())) {
      const p = before.get(param);
      const q = after.get(param);
      const at = { oldPointer: `${opPointer(o)}/parameters`, newPointer: `${opPointer(n)}/parameters` };
      if (!p && q)
        pushHttp(
          out,
          {
            rule: 'parameter-added',
            area: 'parameter',
            subject: name,
            message: `${what} \`${param}\` is new${q.required ? ' and required' : ''}`,
            ...at,
            expect: q.required ? 'senders' : 'none',
          },
          q.required
            ? {
                witnesses: lookup(
                  'senders',
                  'request',
                  { method: n.method.toUpperCase(), path: o.path, ...sent },
                  `the new document requires the ${what} ${param}`,
                ),
              }
            : {},
        );
      else if (p && !q)
        pushHttp(
          out,
          {
            rule: 'parameter-removed',
            area: 'parameter',
            subject: name,
            message: `${what} \`${param}\` is gone${p.required ? ' (it was required)' : ''}`,
            ...at,
            expect: p.required ? 'receivers' : 'none',
          },
          p.required
            ? {
                witnesses: lookup(
                  'receivers',
                  'request',
                  { method: n.method.toUpperCase(), path: n.path, ...sent },
                  `the old document requires the ${what} ${param}`,
                ),
              }
            : {},
        );
      else if (p && q) {
        if (p.required !== q.required)
          pushHttp(
            out,
            {
              rule: q.required ? 'parameter-required' : 'parameter-optional',
              area: 'parameter',
              subject: name,
              message: `${what} \`${param}\` is ${q.required ? 'now required' : 'no longer required'}`,
              ...at,
              expect: q.required ? 'senders' : 'receivers',
            },
            {
              witnesses: lookup(
                q.required ? 'senders' : 'receivers',
                'request',
                { method: n.method.toUpperCase(), path: n.path, ...sent },
                `the ${q.required ? 'new' : 'old'} document requires the ${what} ${param}`,
              ),
            },
          );
        schemaFindings(
          out,
          'openapi',
          `${name} ${what} ${param}`,
          'parameter',
          p.schema,
          q.schema,
          at.oldPointer,
          at.newPointer,
        );
      }
    }
  }
}
