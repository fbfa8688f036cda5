// Emits `routes.ts`: the server side of a version's HTTP surface as Hono stubs. Each response key of the OpenAPI
// document becomes a variant of the handler's result type: an exact status (`200`), a range (`2XX`, OpenAPI 3.1
// §4.8.16.2: any registered status of that class) or `default` (any other status).
import type { ProtoNameNode } from '@agentproto/runtime';
import type {
  ContentModel,
  OperationModel,
  ParameterModel,
  ProtocolModel,
  ResponseModel,
} from '../../model/protocol-model.js';
import { type Code, doc, ident, joinCode, key, literal, str, ts, upperFirst } from '../code.js';
import { inlineValidatorName, parameterValidatorName } from '../validators/emit-validators.js';

/** An exact status key (`"200"`); any other key is a range (`"2XX"`) or `"default"`. */
const EXACT = /^[1-5]\d\d$/;

const BINARY_BODY = ts`Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string`;

/**
 * Emits `routes.ts`: per operation an input and a result type, the typed handlers interface keyed by operationId,
 * the operation table the runtime serves, and the app factory `create<Protocol>App(handlers, options)`.
 */
export function emitRoutes(model: ProtocolModel): Code {
  const stem = ident(model.stem);
  const handlers = model.operations.map((op) => {
    const name = ident(upperFirst(op.operationId));
    return ts`${doc(`${summaryOf(op)}\`${op.method.toUpperCase()} ${op.path}\``, '  ')}  ${ident(op.operationId)}(input: ${name}Input, c: Context): ${name}Result | Promise<${name}Result>;\n`;
  });
  const ranges = model.operations.some((op) => op.responses.some((r) => !EXACT.test(r.status)));
  const protoNames = model.protoNames && model.protoNames.length > 0 ? model.protoNames : undefined;
  return ts`import { type AppOptions, createOperationApp, type HandlerInput, type HandlerResult, type OperationSpec${protoNames ? ts`, type ProtoNameNode` : ts``}${ranges ? ts`, type StatusOf` : ts``} } from '@agentproto/runtime';
import type { Context, Hono } from 'hono';
import type { components, operations } from './openapi.js';
import * as parameters from './parameters.js';
import * as messages from './validators.js';

${model.operations.map(emitOperationTypes)}${doc(`The handlers of an ${model.title} ${model.version} agent, one per operation, keyed by operationId.`)}export interface ${stem}Handlers {
${handlers}}

${protoNames ? emitProtoNames(protoNames) : ts``}const operationSpecs: readonly OperationSpec[] = [
${model.operations.map(emitSpec)}];

${doc(
  `Builds a Hono app serving every ${model.title} ${model.version} operation with the given handlers.\n` +
    'Path, query and body are validated before a handler runs (400, 415, 422 with a problem body); in development\n' +
    "each handler's answer is checked against the declared responses.",
)}export function create${stem}App(handlers: ${stem}Handlers, options?: AppOptions): Hono {
  return createOperationApp(
    operationSpecs,
    handlers as unknown as Record<string, (input: HandlerInput, c: Context) => Promise<HandlerResult>>,
    options,
  );
}
`;
}

/**
 * A document's ProtoJSON name table (`x-protoJson`), one node a line; request bodies (or a JSON-RPC method's params,
 * `what`) point into it by index.
 */
export function emitProtoNames(nodes: readonly ProtoNameNode[], what = 'request bodies'): Code {
  return ts`${doc(
    `Where the ${what} of this ProtoJSON binding may name fields by their proto names (\`x-protoJson\`): per\n` +
      'object, its declared fields (each with the node of its value, -1 for none), their proto names and the optional\n' +
      'plain strings whose "" means unset; per map or array, the node of its values or items.',
  )}const protoNames: readonly ProtoNameNode[] = [
${nodes.map((n) => ts`  ${literal(n)},\n`)}];

`;
}

/** An operation's summary, followed by a space, or nothing when it has none. */
export function summaryOf(op: OperationModel): string {
  return op.summary === '' ? '' : `${op.summary} `;
}

/** The TypeScript type of a response key's status: the code itself, a range's codes, or any other code. */
function statusType(r: ResponseModel, op: OperationModel): Code {
  if (EXACT.test(r.status)) return ts`${Number(r.status)}`;
  const exact = op.responses.filter((x) => EXACT.test(x.status)).map((x) => ts`${Number(x.status)}`);
  const declared = exact.length > 0 ? joinCode(exact, ' | ') : ts`never`;
  // A range or `default` never takes a status an exact key claims: that key's variant answers it.
  return ts`Exclude<StatusOf<${str(r.status)}>, ${declared}>`;
}

function emitOperationTypes(op: OperationModel): Code {
  const name = ident(upperFirst(op.operationId));
  const opType = ts`operations[${str(op.operationId)}]`;
  const body = op.requestBody
    ? ts`  body: ${joinCode(unique(op.requestBody.contents.map((c) => contentType(c, op, undefined))), ' | ')}${op.requestBody.required ? ts`` : ts` | undefined`};\n`
    : ts`  body: undefined;\n`;
  const variants: Code[] = [];
  for (const r of op.responses) {
    const status = statusType(r, op);
    r.contents.forEach((c, i) => {
      const ct = ts`contentType${i === 0 ? ts`?` : ts``}: ${str(c.mediaType)}`;
      variants.push(
        ts`{ status: ${status}; body: ${contentType(c, op, r.status)}; ${ct}; headers?: Record<string, string> }`,
      );
    });
    if (r.contents.length === 0)
      variants.push(ts`{ status: ${status}; body?: undefined; headers?: Record<string, string> }`);
  }
  return ts`${doc(`What the \`${op.operationId}\` handler receives, validated.`)}export interface ${name}Input {
  params: ${paramsType(op.pathParams, ts`${opType}['parameters']['path']`)};
  query: ${paramsType(op.queryParams, ts`${opType}['parameters']['query']`)};
${body}  request: Request;
  /** Aborts when the client goes away: stop work, and end a stream early. */
  signal: AbortSignal;
}

${doc(`What the \`${op.operationId}\` handler may answer: a declared status and its body.`)}export type ${name}Result =
${joinCode(
  variants.map((v) => ts`  | ${v}`),
  '\n',
)};

`;
}

function unique(codes: readonly Code[]): Code[] {
  const seen = new Map(codes.map((c) => [String(c), c]));
  return [...seen.values()];
}

function paramsType(params: ParameterModel[], source: Code): Code {
  if (params.length === 0) return ts`Record<string, never>`;
  const fields = params.map((p) => {
    const value = ts`NonNullable<${source}>[${str(p.name)}]`;
    // Defaults are filled in before the handler runs, so a parameter with a default is always present.
    return p.required || p.hasDefault
      ? ts`${key(p.name)}: Exclude<${value}, undefined>`
      : ts`${key(p.name)}?: ${value}`;
  });
  return ts`{ ${joinCode(fields, '; ')} }`;
}

/** The type of a body: of the request (`status` undefined) or of the response under that key. */
function contentType(c: ContentModel, op: OperationModel, status: string | undefined): Code {
  if (c.kind === 'binary') return BINARY_BODY;
  if (c.kind === 'stream') return ts`AsyncIterable<${streamItemType(c)}>`;
  if (c.typeName) return ts`components['schemas'][${str(c.typeName)}]`;
  if (status === undefined)
    return ts`NonNullable<operations[${str(op.operationId)}]['requestBody']>['content'][${str(c.mediaType)}]`;
  return ts`operations[${str(op.operationId)}]['responses'][${str(status)}]['content'][${str(c.mediaType)}]`;
}

/** The TypeScript type of one item of a stream: its named type, or the type of its validator's schema. */
export function streamItemType(c: ContentModel): Code {
  return c.item?.typeName ? ts`components['schemas'][${str(c.item.typeName)}]` : ts`unknown`;
}

function emitContentSpec(c: ContentModel, op: OperationModel, where: string, index: number): Code {
  const parts: Code[] = [ts`mediaType: ${str(c.mediaType)}`, ts`kind: ${str(c.kind)}`];
  if (c.kind === 'stream') {
    const name = c.item?.typeName ?? (c.item ? inlineValidatorName(op, `${where}_item`, index) : undefined);
    if (name) parts.push(ts`validate: messages.${ident(name)}`);
    // The schema type is named in what a developer hears of an item that breaks it.
    if (c.item?.typeName) parts.push(ts`type: ${str(c.item.typeName)}`);
    parts.push(ts`framing: ${str(c.item?.framing ?? 'ndjson')}`);
    if (c.item?.idField) parts.push(ts`sseIdField: ${str(c.item.idField)}`);
  } else if (c.kind !== 'binary') {
    parts.push(ts`validate: messages.${ident(c.typeName ?? inlineValidatorName(op, where, index))}`);
    if (c.typeName) parts.push(ts`type: ${str(c.typeName)}`);
  }
  if (c.fileFields.length > 0) parts.push(ts`fileFields: [${joinCode(c.fileFields.map(str), ', ')}]`);
  if (c.protoNames !== undefined) parts.push(ts`protoNames: { nodes: protoNames, root: ${c.protoNames} }`);
  return ts`{ ${joinCode(parts, ', ')} }`;
}

function emitSpec(op: OperationModel): Code {
  const decimals = (params: ParameterModel[]) =>
    params.filter((p) => p.decimal).map((p) => ts`${str(p.name)}: ${str(p.decimal ?? 'number')}`);
  const path = decimals(op.pathParams);
  const query = decimals(op.queryParams);
  const decimalParts: Code[] = [];
  if (path.length > 0) decimalParts.push(ts`path: { ${joinCode(path, ', ')} }`);
  if (query.length > 0) decimalParts.push(ts`query: { ${joinCode(query, ', ')} }`);
  const booleans = (params: ParameterModel[]) => params.filter((p) => p.boolean).map((p) => str(p.name));
  const booleanParts: Code[] = [];
  for (const [where, params] of [
    ['path', op.pathParams],
    ['query', op.queryParams],
  ] as const) {
    const names = booleans(params);
    if (names.length > 0) booleanParts.push(ts`${ident(where)}: [${joinCode(names, ', ')}]`);
  }
  const body = op.requestBody
    ? ts`    body: { required: ${op.requestBody.required}, contents: [${joinCode(
        op.requestBody.contents.map((c, i) => emitContentSpec(c, op, 'body', i)),
        ', ',
      )}] },\n`
    : ts``;
  const responses = op.responses.map(
    (r) =>
      ts`      ${str(r.status)}: [${joinCode(
        r.contents.map((c, i) => emitContentSpec(c, op, `response${r.status}`, i)),
        ', ',
      )}],\n`,
  );
  return ts`  {
    operationId: ${str(op.operationId)},
    method: ${str(op.method.toUpperCase())},
    path: ${str(op.path)},
    pathParams: parameters.${ident(parameterValidatorName(op, 'path'))},
    query: parameters.${ident(parameterValidatorName(op, 'query'))},
${decimalParts.length > 0 ? ts`    decimals: { ${joinCode(decimalParts, ', ')} },\n` : ts``}${op.queryProtoNames ? ts`    queryProtoNames: ${literal(op.queryProtoNames)},\n` : ts``}${booleanParts.length > 0 ? ts`    booleans: { ${joinCode(booleanParts, ', ')} },\n` : ts``}${body}    responses: {
${responses}    },
  },
`;
}
