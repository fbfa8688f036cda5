// Emits `client.ts`: the typed client of a version's HTTP surface, over openapi-fetch. Streamed answers are read item
// by item with the runtime's readItems; form bodies go as multipart; binary answers are read as a Blob.
import type { OperationModel, ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, ident, joinCode, str, ts } from '../code.js';
import { streamItemType, summaryOf } from '../routes/emit-routes.js';

/**
 * Emits `client.ts`: `create<Protocol>Client(options)`, an openapi-fetch client with one typed method per
 * operation, keyed by operationId. Form bodies are sent as multipart; binary answers are read as a Blob.
 */
export function emitClient(model: ProtocolModel): Code {
  const stem = ident(model.stem);
  const streams = model.operations.some((op) => streamedOk(op));
  return ts`import { fetchWithin, ${streams ? ts`readItems, ` : ts``}toFormData } from '@agentproto/runtime';
import createClient, { type ClientOptions, type MaybeOptionalInit } from 'openapi-fetch';
// The client's inferred type names openapi-fetch's helper types; this import lets a declaration build refer to them
// by their package's name (the protocol package depends on it) instead of a path inside node_modules.
import type {} from 'openapi-typescript-helpers';
import type { ${streams ? ts`components, ` : ts``}paths } from './openapi.js';

// openapi-fetch's rule for its init argument: optional when nothing in it is required.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

${doc(
  streams
    ? 'Options of the client: those of openapi-fetch, plus how long a request may take and a stream may stay silent.'
    : 'Options of the client: those of openapi-fetch, plus how long a request may take.',
)}export interface ${stem}ClientOptions extends ClientOptions {
  /**
   * Give up on a request after this long, in milliseconds (default 60 000): waiting for its answer's headers and, for
   * an answer that is not a stream, reading its body. It rejects with a FetchTimeout naming the request.
   */
  timeoutMs?: number;
${
  streams
    ? ts`  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default: wait forever). */
  streamIdleTimeoutMs?: number;
`
    : ts``
}}

${doc(
  `A typed client for an ${model.title} ${model.version} agent. \`options.baseUrl\` is the agent's root; pass\n` +
    '`options.fetch` to call an app in memory (for example `(r) => app.fetch(r)`).',
)}export function create${stem}Client(options: ${stem}ClientOptions = {}) {
  // Every request gives up in time and says what failed: an agent that never answers cannot hang the client.
  const fetcher = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const http = createClient<paths>({ ...options, fetch: fetchWithin(fetcher, options.timeoutMs) });
${
  streams
    ? ts`  const streamOptions = options.streamIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.streamIdleTimeoutMs };\n`
    : ts``
}  return {
    /** The underlying openapi-fetch client, for middleware and raw calls. */
    http,
${model.operations.map(emitMethod)}  };
}

/** The client returned by \`create${stem}Client\`. */
export type ${stem}Client = ReturnType<typeof create${stem}Client>;
`;
}

/** The success response of an operation: its first `2xx` key (`200`, `201`, or the range `2XX`). */
function successOf(op: OperationModel) {
  return op.responses.find((r) => r.status.startsWith('2'));
}

/** The streamed content of an operation's success answer, if it streams. */
function streamedOk(op: OperationModel) {
  return successOf(op)?.contents.find((c) => c.kind === 'stream');
}

function emitMethod(op: OperationModel): Code {
  const method = ident(op.method.toUpperCase());
  const initType = ts`MaybeOptionalInit<paths[${str(op.path)}], ${str(op.method)}>`;
  const stream = streamedOk(op);
  const ok = successOf(op);
  if (stream) {
    // The body is read item by item as it arrives; `items` is undefined when the agent answered with an error.
    const head = ts`${doc(
      `${summaryOf(op)}\`${op.method.toUpperCase()} ${op.path}\`. Resolves once the answer's headers arrive; iterate \`items\` for the\n` +
        'streamed items, which throws StreamReadError on an item that is not JSON or a broken or silent stream.',
      '    ',
    )}    ${ident(op.operationId)}: async (...init: InitArgs<${initType}>) => {
      const { data, error, response } = await http.${method}(${str(op.path)}, ...([{ parseAs: 'stream' as const, ...init[0] }] as [${initType} & { parseAs: 'stream' }]));
`;
    const read = ts`readItems<${streamItemType(stream)}>(data, ${str(stream.item?.framing ?? 'ndjson')}, streamOptions)`;
    const json = ok?.contents.find((c) => c.kind === 'json');
    if (!json || !ok)
      return ts`${head}      const items = data ? ${read} : undefined;
      return { items, error, response };
    },
`;
    // The same status answers either a stream or a JSON document: the answer's media type says which was sent.
    const jsonType = ts`paths[${str(op.path)}][${str(op.method)}]['responses'][${str(ok.status)}]['content'][${str(json.mediaType)}]`;
    return ts`${head}      const streamed = (response.headers.get('content-type') ?? '').startsWith(${str(stream.mediaType)});
      const items = data && streamed ? ${read} : undefined;
      const document = data && !streamed ? (JSON.parse(await new Response(data).text()) as ${jsonType}) : undefined;
      return { items, data: document, error, response };
    },
`;
  }
  const extras: Code[] = [];
  if (op.requestBody?.contents.some((c) => c.kind === 'form')) extras.push(ts`bodySerializer: toFormData`);
  const binary = ok?.contents.some((c) => c.kind === 'binary') ?? false;
  if (binary) extras.push(ts`parseAs: 'blob' as const`);
  const init = extras.length > 0 ? ts`{ ${joinCode(extras, ', ')}, ...init[0] }` : ts`init[0]`;
  // The cast restates openapi-fetch's own rest-argument rule, which TypeScript cannot see through a wrapper.
  return ts`${doc(`${summaryOf(op)}\`${op.method.toUpperCase()} ${op.path}\``, '    ')}    ${ident(op.operationId)}: (...init: InitArgs<${initType}>) =>
      http.${method}(${str(op.path)}, ...([${init}] as [${initType}${binary ? ts` & { parseAs: 'blob' }` : ts``}])),
`;
}
