import type {
  ContentModel,
  OperationModel,
  ParameterModel,
  ProtocolModel,
} from '../../model/protocol-model.js';
import { doc, ident, key, str, upperFirst } from '../code.js';
import { inlineValidatorName, parameterValidatorName } from '../validators/emit-validators.js';

const BINARY_BODY = 'Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string';

/**
 * Emits `routes.ts`: per operation an input and a result type, the typed handlers interface keyed by operationId,
 * the operation table the runtime serves, and the app factory `create<Protocol>App(handlers, options)`.
 */
export function emitRoutes(model: ProtocolModel): string {
  const stem = ident(model.stem);
  let out = `import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

`;
  for (const op of model.operations) out += emitOperationTypes(op);
  out += doc(
    `The handlers of an ${model.title} ${model.version} agent, one per operation, keyed by operationId.`,
  );
  out += `export interface ${stem}Handlers {\n`;
  for (const op of model.operations) {
    const name = upperFirst(ident(op.operationId));
    out += doc(`${op.summary} \`${op.method.toUpperCase()} ${op.path}\``, '  ');
    out += `  ${op.operationId}(input: ${name}Input, c: Context): ${name}Result | Promise<${name}Result>;\n`;
  }
  out += `}\n\n`;
  out += `const operationSpecs: readonly OperationSpec[] = [\n`;
  for (const op of model.operations) out += emitSpec(op);
  out += `];\n\n`;
  out += doc(
    `Builds a Hono app serving every ${model.title} ${model.version} operation with the given handlers.\n` +
      'Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development\n' +
      "each handler's answer is checked against the declared responses.",
  );
  out += `export function create${stem}App(handlers: ${stem}Handlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
`;
  return out;
}

function emitOperationTypes(op: OperationModel): string {
  const name = upperFirst(ident(op.operationId));
  const opType = `operations[${str(op.operationId)}]`;
  let out = doc(`What the \`${op.operationId}\` handler receives, validated.`);
  out += `export interface ${name}Input {\n`;
  out += `  params: ${paramsType(op.pathParams, `${opType}['parameters']['path']`)};\n`;
  out += `  query: ${paramsType(op.queryParams, `${opType}['parameters']['query']`)};\n`;
  if (op.requestBody) {
    const bodies = op.requestBody.contents.map((c) => contentType(c, op, 'body'));
    out += `  body: ${[...new Set(bodies)].join(' | ')}${op.requestBody.required ? '' : ' | undefined'};\n`;
  } else {
    out += `  body: undefined;\n`;
  }
  out += `  request: Request;\n`;
  out += `  /** Aborts when the client goes away: stop work, and end a stream early. */\n  signal: AbortSignal;\n}\n\n`;
  const variants: string[] = [];
  for (const r of op.responses) {
    if (!/^\d{3}$/.test(r.status)) continue;
    r.contents.forEach((c, i) => {
      const ct = `contentType${i === 0 ? '?' : ''}: ${str(c.mediaType)}`;
      const body = contentType(c, op, `response${r.status}`);
      variants.push(`{ status: ${r.status}; body: ${body}; ${ct}; headers?: Record<string, string> }`);
    });
    if (r.contents.length === 0)
      variants.push(`{ status: ${r.status}; body?: undefined; headers?: Record<string, string> }`);
  }
  out += doc(`What the \`${op.operationId}\` handler may answer: a declared status and its body.`);
  out += `export type ${name}Result =\n${variants.map((v) => `  | ${v}`).join('\n')};\n\n`;
  return out;
}

function paramsType(params: ParameterModel[], source: string): string {
  if (params.length === 0) return 'Record<string, never>';
  const fields = params.map((p) => {
    const value = `NonNullable<${source}>[${str(p.name)}]`;
    // Defaults are filled in before the handler runs, so a parameter with a default is always present.
    return p.required || p.hasDefault
      ? `${key(p.name)}: Exclude<${value}, undefined>`
      : `${key(p.name)}?: ${value}`;
  });
  return `{ ${fields.join('; ')} }`;
}

function contentType(c: ContentModel, op: OperationModel, where: string): string {
  if (c.kind === 'binary') return BINARY_BODY;
  if (c.kind === 'stream') return `AsyncIterable<${streamItemType(c)}>`;
  if (c.typeName) return `components['schemas'][${str(c.typeName)}]`;
  if (where === 'body')
    return `NonNullable<operations[${str(op.operationId)}]['requestBody']>['content'][${str(c.mediaType)}]`;
  return `operations[${str(op.operationId)}]['responses'][${where.replace('response', '')}]['content'][${str(c.mediaType)}]`;
}

/** The TypeScript type of one item of a stream: its named type, or the type of its validator's schema. */
export function streamItemType(c: ContentModel): string {
  return c.item?.typeName ? `components['schemas'][${str(c.item.typeName)}]` : 'unknown';
}

function emitContentSpec(c: ContentModel, op: OperationModel, where: string, index: number): string {
  let validator = '';
  if (c.kind === 'stream') {
    const name = c.item?.typeName ?? (c.item ? inlineValidatorName(op, `${where}_item`, index) : undefined);
    validator = `${name ? `, validate: messages.${ident(name)}` : ''}, framing: ${str(c.item?.framing ?? 'ndjson')}`;
    if (c.item?.idField) validator += `, sseIdField: ${str(c.item.idField)}`;
  } else if (c.kind !== 'binary') {
    validator = `, validate: messages.${c.typeName ? ident(c.typeName) : ident(inlineValidatorName(op, where, index))}`;
  }
  const files = c.fileFields.length > 0 ? `, fileFields: [${c.fileFields.map(str).join(', ')}]` : '';
  return `{ mediaType: ${str(c.mediaType)}, kind: ${str(c.kind)}${validator}${files} }`;
}

function emitSpec(op: OperationModel): string {
  let out = `  {\n    operationId: ${str(op.operationId)},\n    method: ${str(op.method.toUpperCase())},\n    path: ${str(op.path)},\n`;
  out += `    pathParams: parameters.${ident(parameterValidatorName(op, 'path'))},\n`;
  out += `    query: parameters.${ident(parameterValidatorName(op, 'query'))},\n`;
  const decimals = (params: ParameterModel[]) =>
    params.filter((p) => p.decimal).map((p) => `${str(p.name)}: ${str(p.decimal as string)}`);
  const path = decimals(op.pathParams);
  const query = decimals(op.queryParams);
  if (path.length + query.length > 0) {
    const parts = [];
    if (path.length > 0) parts.push(`path: { ${path.join(', ')} }`);
    if (query.length > 0) parts.push(`query: { ${query.join(', ')} }`);
    out += `    decimals: { ${parts.join(', ')} },\n`;
  }
  if (op.requestBody) {
    const contents = op.requestBody.contents.map((c, i) => emitContentSpec(c, op, 'body', i));
    out += `    body: { required: ${op.requestBody.required}, contents: [${contents.join(', ')}] },\n`;
  }
  out += `    responses: {\n`;
  for (const r of op.responses) {
    const contents = r.contents.map((c, i) => emitContentSpec(c, op, `response${r.status}`, i));
    out += `      ${str(r.status)}: [${contents.join(', ')}],\n`;
  }
  out += `    },\n  },\n`;
  return out;
}
