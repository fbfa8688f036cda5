// The request body of an HTTP operation both sides declare: whether it is required, then its media types and their
// schemas (compared as a response's are, by media-types.ts).
import { lookup, type OperationPair, opPointer, pushHttp } from './http-pair.js';
import { contentChanges } from './media-types.js';

/** The request body made required or optional, and every change of its media types. */
export function requestBodyChanges(pair: OperationPair): void {
  const { out, name, o, n } = pair;
  const bodyAt = { oldPointer: `${opPointer(o)}/requestBody`, newPointer: `${opPointer(n)}/requestBody` };
  if (o.requestBody?.required !== n.requestBody?.required && o.requestBody && n.requestBody)
    pushHttp(
      out,
      {
        rule: n.requestBody.required ? 'body-required' : 'body-optional',
        area: 'operation',
        subject: name,
        message: `the request body is ${n.requestBody.required ? 'now required' : 'no longer required'}`,
        ...bodyAt,
        expect: n.requestBody.required ? 'senders' : 'receivers',
      },
      {
        witnesses: lookup(
          n.requestBody.required ? 'senders' : 'receivers',
          'request',
          { method: n.method.toUpperCase(), path: n.path, body: null },
          `the ${n.requestBody.required ? 'new' : 'old'} document requires a request body`,
        ),
      },
    );
  contentChanges(
    out,
    `${name} request`,
    o.requestBody?.contents ?? [],
    n.requestBody?.contents ?? [],
    bodyAt.oldPointer,
    bodyAt.newPointer,
    'request',
  );
}
