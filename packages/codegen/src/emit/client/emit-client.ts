import type { OperationModel, ProtocolModel } from '../../model/protocol-model.js';
import { doc, ident, str } from '../code.js';
import { streamItemType } from '../routes/emit-routes.js';

/**
 * Emits `client.ts`: `create<Protocol>Client(options)`, an openapi-fetch client with one typed method per
 * operation, keyed by operationId. Form bodies are sent as multipart; binary answers are read as a Blob.
 */
export function emitClient(model: ProtocolModel): string {
  const stem = ident(model.stem);
  const streams = model.operations.some((op) => streamedOk(op));
  let out = `import { ${streams ? 'readItems, ' : ''}toFormData } from '@agentproto/runtime';
import createClient, { type ClientOptions, type MaybeOptionalInit } from 'openapi-fetch';
// The client's inferred type names openapi-fetch's helper types; this import lets a declaration build refer to them
// by their package's name (the protocol package depends on it) instead of a path inside node_modules.
import type {} from 'openapi-typescript-helpers';
import type { ${streams ? 'components, ' : ''}paths } from './openapi.js';

// openapi-fetch's rule for its init argument: optional when nothing in it is required.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

`;
  out += doc(
    `A typed client for an ${model.title} ${model.version} agent. \`options.baseUrl\` is the agent's root; pass\n` +
      '`options.fetch` to call an app in memory (for example `(r) => app.fetch(r)`).',
  );
  if (streams) {
    out += doc('Options of the client: those of openapi-fetch, plus how long a stream may stay silent.');
    out += `export interface ${stem}ClientOptions extends ClientOptions {\n`;
    out += `  /** Fail a streamed answer that sends nothing for this long, in milliseconds (default: wait forever). */\n`;
    out += `  streamIdleTimeoutMs?: number;\n}\n\n`;
  }
  const optionsType = streams ? `${stem}ClientOptions` : 'ClientOptions';
  out += `export function create${stem}Client(options: ${optionsType} = {}) {\n  const http = createClient<paths>(options);\n`;
  if (streams) {
    out += `  const streamOptions = options.streamIdleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.streamIdleTimeoutMs };\n`;
  }
  out += `  return {\n`;
  out += `    /** The underlying openapi-fetch client, for middleware and raw calls. */\n    http,\n`;
  for (const op of model.operations) out += emitMethod(op);
  out += `  };\n}\n\n`;
  out += `/** The client returned by \`create${stem}Client\`. */\nexport type ${stem}Client = ReturnType<typeof create${stem}Client>;\n`;
  return out;
}

/** The streamed content of an operation's success answer, if it streams. */
function streamedOk(op: OperationModel) {
  const ok = op.responses.find((r) => r.status.startsWith('2'));
  return ok?.contents.find((c) => c.kind === 'stream');
}

function emitMethod(op: OperationModel): string {
  const method = op.method.toUpperCase();
  const initType = `MaybeOptionalInit<paths[${str(op.path)}], ${str(op.method)}>`;
  const stream = streamedOk(op);
  const ok = op.responses.find((r) => r.status.startsWith('2'));
  if (stream) {
    // The body is read item by item as it arrives; `items` is undefined when the agent answered with an error.
    let out = doc(
      `${op.summary} \`${method} ${op.path}\`. Resolves once the answer's headers arrive; iterate \`items\` for the\n` +
        'streamed items, which throws StreamReadError on an item that is not JSON or a broken or silent stream.',
      '    ',
    );
    out += `    ${ident(op.operationId)}: async (...init: InitArgs<${initType}>) => {\n`;
    out += `      const { data, error, response } = await http.${method}(${str(op.path)}, ...([{ parseAs: 'stream' as const, ...init[0] }] as [${initType} & { parseAs: 'stream' }]));\n`;
    const read = `readItems<${streamItemType(stream)}>(data, ${str(stream.item?.framing ?? 'ndjson')}, streamOptions)`;
    const json = ok?.contents.find((c) => c.kind === 'json');
    if (!json) {
      out += `      const items = data ? ${read} : undefined;\n`;
      out += `      return { items, error, response };\n    },\n`;
      return out;
    }
    // The same status answers either a stream or a JSON document: the answer's media type says which was sent.
    const jsonType = `paths[${str(op.path)}][${str(op.method)}]['responses'][${ok?.status}]['content'][${str(json.mediaType)}]`;
    out += `      const streamed = (response.headers.get('content-type') ?? '').startsWith(${str(stream.mediaType)});\n`;
    out += `      const items = data && streamed ? ${read} : undefined;\n`;
    out += `      const document = data && !streamed ? (JSON.parse(await new Response(data).text()) as ${jsonType}) : undefined;\n`;
    out += `      return { items, data: document, error, response };\n    },\n`;
    return out;
  }
  const extras: string[] = [];
  if (op.requestBody?.contents.some((c) => c.kind === 'form')) extras.push('bodySerializer: toFormData');
  const binary = ok?.contents.some((c) => c.kind === 'binary') ?? false;
  if (binary) extras.push(`parseAs: 'blob' as const`);
  const init = extras.length > 0 ? `{ ${extras.join(', ')}, ...init[0] }` : 'init[0]';
  // The cast restates openapi-fetch's own rest-argument rule, which TypeScript cannot see through a wrapper.
  let out = doc(`${op.summary} \`${method} ${op.path}\``, '    ');
  out += `    ${ident(op.operationId)}: (...init: InitArgs<${initType}>) =>\n`;
  out += `      http.${method}(${str(op.path)}, ...([${init}] as [${initType}${binary ? ` & { parseAs: 'blob' }` : ''}])),\n`;
  return out;
}
