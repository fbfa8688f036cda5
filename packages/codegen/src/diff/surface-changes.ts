// Compares the two sides' surfaces: the HTTP operations of their OpenAPI documents (paths and methods, parameters,
// request bodies, statuses, media types, stream items) and the methods of their OpenRPC documents (params, results,
// streams). What a surface declares is compared here; the schemas it points at are walked by schema-changes.ts.
import { escapePointerToken } from '../diagnostics.js';
import { operationsOf } from '../model/operations.js';
import { parametersOf } from '../model/parameters.js';
import type { ContentModel, OperationModel, TypeModel } from '../model/protocol-model.js';
import { documentContext } from '../model/references.js';
import { isRecord } from '../util/json.js';
import type { Breaks, DiffSide, Witness } from './diff-types.js';
import { type FoundChange, refTypeName, schemaChanges } from './schema-changes.js';
import type { Subject } from './witness.js';

/** A change of a surface, with what its witnesses are checked against (or the witnesses a lookup already gives). */
export interface SurfaceFinding {
  found: FoundChange;
  document: 'openapi' | 'openrpc';
  subject?: Subject;
  witnesses?: Witness[];
}

type Pair<T> = Record<'old' | 'new', T>;

/** Every change between the two sides' OpenAPI and OpenRPC documents. */
export function surfaceChanges(sides: Pair<DiffSide>): SurfaceFinding[] {
  const out: SurfaceFinding[] = [];
  if (sides.old.openapi && sides.new.openapi) httpChanges(sides, out);
  if (sides.old.openrpc && sides.new.openrpc) rpcChanges(sides, out);
  return out;
}

function typeModels(side: DiffSide): TypeModel[] {
  return [...side.types].map(([name, t]) => ({
    name,
    id: t.id,
    file: t.file,
    description: '',
    schema: t.value as Record<string, unknown>,
  }));
}

/** `POST /tasks/{}`: an operation's identity, whatever its path parameters are called. */
function routeKey(op: OperationModel): string {
  const segments = op.path.split('/').map((segment) => segment.replace(/^\{[^{}]*\}/, '{}'));
  return `${op.method.toUpperCase()} ${segments.join('/')}`;
}

function httpChanges(sides: Pair<DiffSide>, out: SurfaceFinding[]): void {
  const docs = {
    old: sides.old.openapi?.value as Record<string, unknown>,
    new: sides.new.openapi?.value as Record<string, unknown>,
  };
  const ctx = {
    old: documentContext(docs.old, typeModels(sides.old)),
    new: documentContext(docs.new, typeModels(sides.new)),
  };
  const ops = {
    old: new Map(operationsOf(ctx.old).map((o) => [routeKey(o), o])),
    new: new Map(operationsOf(ctx.new).map((o) => [routeKey(o), o])),
  };
  const opPointer = (op: OperationModel) => `/paths/${escapePointerToken(op.path)}/${op.method}`;
  const push = (
    f: Omit<FoundChange, 'area' | 'mutations'> & { area: FoundChange['area'] },
    extra: Partial<SurfaceFinding> = {},
  ) => out.push({ found: { mutations: [], ...f }, document: 'openapi', ...extra });
  const lookup = (
    breaks: 'receivers' | 'senders',
    subject: string,
    message: unknown,
    missing: string,
  ): Witness[] => [{ breaks, subject, message, rejection: missing }];
  for (const key of union(ops.old.keys(), ops.new.keys())) {
    const o = ops.old.get(key);
    const n = ops.new.get(key);
    if (!o && n) {
      push(
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
      push(
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
    const name = `${n.method.toUpperCase()} ${n.path}`;
    // Parameters, by where they go and their name (a header's name in lower case: HTTP does not tell case apart).
    const headers = (side: 'old' | 'new', op: OperationModel) => {
      const item = ((docs[side].paths as Record<string, Record<string, unknown>> | undefined)?.[op.path] ??
        {}) as Record<string, unknown>;
      const operation = (item[op.method] ?? {}) as Record<string, unknown>;
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
          push(
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
          push(
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
            push(
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
    // The request body: whether it is required, its media types and their schemas.
    const bodyAt = { oldPointer: `${opPointer(o)}/requestBody`, newPointer: `${opPointer(n)}/requestBody` };
    if (o.requestBody?.required !== n.requestBody?.required && o.requestBody && n.requestBody)
      push(
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
    // Responses, by status.
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
        push(
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
        push(
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
      else if (p && q)
        contentChanges(
          out,
          `${name} ${status}`,
          p.contents,
          q.contents,
          at.oldPointer,
          at.newPointer,
          'response',
        );
    }
  }
}

function responsePointer(doc: Record<string, unknown>, op: OperationModel, status: string): string {
  const paths = isRecord(doc.paths) ? doc.paths : {};
  const item = isRecord(paths[op.path]) ? (paths[op.path] as Record<string, unknown>) : {};
  const operation = isRecord(item[op.method]) ? (item[op.method] as Record<string, unknown>) : {};
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const response = responses[status];
  // A response kept under components is where its media types are written.
  if (isRecord(response) && typeof response.$ref === 'string' && response.$ref.startsWith('#/'))
    return response.$ref.slice(1);
  return `/paths/${escapePointerToken(op.path)}/${op.method}/responses/${escapePointerToken(status)}`;
}

function contentChanges(
  out: SurfaceFinding[],
  name: string,
  before: ContentModel[],
  after: ContentModel[],
  po: string,
  pn: string,
  direction: 'request' | 'response',
): void {
  const b = new Map(before.map((c) => [c.mediaType, c]));
  const a = new Map(after.map((c) => [c.mediaType, c]));
  const mt = (base: string, media: string) => `${base}/content/${escapePointerToken(media)}`;
  for (const media of union(b.keys(), a.keys())) {
    const p = b.get(media);
    const q = a.get(media);
    if (!p || !q) {
      const added = !p;
      out.push({
        found: {
          rule: added ? 'media-type-added' : 'media-type-removed',
          area: 'media-type',
          subject: name,
          message: `${added ? 'now also' : 'no longer'} ${direction === 'request' ? 'takes' : 'answers with'} ${media}`,
          ...(added
            ? { oldPointer: po, newPointer: mt(pn, media) }
            : { oldPointer: mt(po, media), newPointer: pn }),
          expect: added ? 'receivers' : 'senders',
          mutations: [],
        },
        document: 'openapi',
        witnesses: [
          {
            breaks: added ? 'receivers' : 'senders',
            subject: `${name} body`,
            message: { contentType: media },
            rejection: `the ${added ? 'old' : 'new'} document declares no ${media} for ${name}`,
          },
        ],
      });
      continue;
    }
    schemaFindings(
      out,
      'openapi',
      `${name} ${media}`,
      'media-type',
      p.schema,
      q.schema,
      `${mt(po, media)}/schema`,
      `${mt(pn, media)}/schema`,
    );
    if (p.item || q.item)
      schemaFindings(
        out,
        'openapi',
        `${name} ${media} item`,
        'stream-item',
        p.item?.schema ?? true,
        q.item?.schema ?? true,
        `${mt(po, media)}/x-itemSchema`,
        `${mt(pn, media)}/x-itemSchema`,
      );
  }
}

/** Walks two schemas of a surface; witnesses are checked against those schemas, on examples of the type they name. */
function schemaFindings(
  out: SurfaceFinding[],
  document: 'openapi' | 'openrpc',
  name: string,
  area: FoundChange['area'],
  before: unknown,
  after: unknown,
  po: string,
  pn: string,
): void {
  for (const found of schemaChanges(name, area, before, after, po, pn))
    out.push({ found, document, subject: { name, schema: { old: before, new: after } } });
}

/** The type a surface schema is, when it is exactly a reference to one (so the type's examples are its bases). */
export function subjectType(schema: unknown): string | undefined {
  return isRecord(schema) && Object.keys(schema).length === 1 ? refTypeName(schema.$ref) : undefined;
}

function rpcChanges(sides: Pair<DiffSide>, out: SurfaceFinding[]): void {
  const methods = (side: DiffSide) => {
    const doc = side.openrpc?.value as Record<string, unknown>;
    const ctx = documentContext(doc, typeModels(side));
    const list = (Array.isArray(doc.methods) ? doc.methods : []).map(ctx.deref).filter(isRecord);
    return new Map(
      list.map((m, i) => {
        const params = (Array.isArray(m.params) ? m.params : []).map(ctx.deref).filter(isRecord);
        const result = ctx.deref(m.result);
        const errors = (Array.isArray(m.errors) ? m.errors : []).map(ctx.deref).filter(isRecord);
        return [
          String(m.name),
          {
            pointer: `/methods/${i}`,
            params: new Map(
              params.map((p, j) => [
                String(p.name),
                {
                  required: p.required === true,
                  schema: ctx.toIdRefs(isRecord(p.schema) ? p.schema : {}),
                  pointer: `/methods/${i}/params/${j}`,
                },
              ]),
            ),
            result: ctx.toIdRefs(isRecord(result) && isRecord(result.schema) ? result.schema : {}),
            stream: typeof m['x-stream'] === 'string' ? m['x-stream'] : undefined,
            // The error codes the method declares, each with its message and where it is.
            errors: new Map(
              errors
                .filter((e) => typeof e.code === 'number')
                .map((e, j) => [
                  e.code as number,
                  { message: String(e.message ?? ''), pointer: `/methods/${i}/errors/${j}` },
                ]),
            ),
          },
        ] as const;
      }),
    );
  };
  const before = methods(sides.old);
  const after = methods(sides.new);
  const push = (found: Omit<FoundChange, 'mutations'>, witnesses?: Witness[]) =>
    out.push({
      found: { ...found, mutations: [] },
      document: 'openrpc',
      ...(witnesses ? { witnesses } : {}),
    });
  for (const name of union(before.keys(), after.keys())) {
    const o = before.get(name);
    const n = after.get(name);
    if (!o || !n) {
      const added = !o;
      push(
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
    for (const param of union(o.params.keys(), n.params.keys())) {
      const p = o.params.get(param);
      const q = n.params.get(param);
      const expect: Breaks = !p
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
        push(
          {
            rule: !p
              ? 'param-added'
              : !q
                ? 'param-removed'
                : q.required
                  ? 'param-required'
                  : 'param-optional',
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
                  breaks: expect as 'receivers' | 'senders',
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
    // Error codes: one the old document does not declare is news to its clients; one gone is out of the new one.
    for (const code of union(o.errors.keys(), n.errors.keys())) {
      const e = o.errors.get(code);
      const f = n.errors.get(code);
      if (e && f) continue;
      const added = !e;
      const declared = (f ?? e) as { message: string; pointer: string };
      push(
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
    if (o.stream !== n.stream)
      push(
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
}

function union<T>(a: Iterable<T>, b: Iterable<T>): T[] {
  return [...new Set([...a, ...b])].sort();
}
