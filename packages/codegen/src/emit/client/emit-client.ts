import type { OperationModel, ProtocolModel } from '../../model/protocol-model.js';
import { doc, ident, str } from '../code.js';

/**
 * Emits `client.ts`: `create<Protocol>Client(options)`, an openapi-fetch client with one typed method per
 * operation, keyed by operationId. Form bodies are sent as multipart; binary answers are read as a Blob.
 */
export function emitClient(model: ProtocolModel): string {
  const stem = ident(model.stem);
  let out = `import { toFormData } from '@agentproto/runtime';
import createClient, { type ClientOptions, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './openapi.js';

// openapi-fetch's rule for its init argument: optional when nothing in it is required.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

`;
  out += doc(
    `A typed client for an ${model.title} ${model.version} agent. \`options.baseUrl\` is the agent's root; pass\n` +
      '`options.fetch` to call an app in memory (for example `(r) => app.fetch(r)`).',
  );
  out += `export function create${stem}Client(options: ClientOptions = {}) {\n  const http = createClient<paths>(options);\n  return {\n`;
  out += `    /** The underlying openapi-fetch client, for middleware and raw calls. */\n    http,\n`;
  for (const op of model.operations) out += emitMethod(op);
  out += `  };\n}\n\n`;
  out += `/** The client returned by \`create${stem}Client\`. */\nexport type ${stem}Client = ReturnType<typeof create${stem}Client>;\n`;
  return out;
}

function emitMethod(op: OperationModel): string {
  const method = op.method.toUpperCase();
  const initType = `MaybeOptionalInit<paths[${str(op.path)}], ${str(op.method)}>`;
  const extras: string[] = [];
  if (op.requestBody?.contents.some((c) => c.kind === 'form')) extras.push('bodySerializer: toFormData');
  const ok = op.responses.find((r) => r.status.startsWith('2'));
  const binary = ok?.contents.some((c) => c.kind === 'binary') ?? false;
  if (binary) extras.push(`parseAs: 'blob' as const`);
  const init = extras.length > 0 ? `{ ${extras.join(', ')}, ...init[0] }` : 'init[0]';
  // The cast restates openapi-fetch's own rest-argument rule, which TypeScript cannot see through a wrapper.
  let out = doc(`${op.summary} \`${method} ${op.path}\``, '    ');
  out += `    ${ident(op.operationId)}: (...init: InitArgs<${initType}>) =>\n`;
  out += `      http.${method}(${str(op.path)}, ...([${init}] as [${initType}${binary ? ` & { parseAs: 'blob' }` : ''}])),\n`;
  return out;
}
