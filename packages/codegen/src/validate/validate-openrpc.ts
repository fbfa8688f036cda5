// Validate stage, JSON-RPC surface: the version's `openrpc.json` against the OpenRPC 1.3 meta-schema, then our lint
// rules (the same ones the OpenAPI document follows for references), each diagnostic with file, line and pointer.

import * as openrpcMeta from '@open-rpc/meta-schema';
import { compileKept, type createAjv, sharedAjv } from '../ajv.js';
import { escapePointerToken } from '../diagnostics.js';
import type { LoadedVersion, SourceFile } from '../load/load-protocols.js';
import { isRecord, resolveLocalPointer } from '../util/json.js';
import { streamFraming } from '../util/media-types.js';
import { PROTO_JSON } from '../util/proto-json.js';
import { checkDocumentRefs } from './document-refs.js';

/** The OpenRPC extension that makes a method's answer a stream: its value is the stream's media type. */
export const RPC_STREAM = 'x-stream';

/**
 * The OpenRPC extension, in `info`, that says whether the protocol takes JSON-RPC batches (an array of messages in one
 * body or line): `false` for one that does not (MCP since 2025-06-18). Absent: batches are JSON-RPC 2.0's.
 */
export const RPC_BATCHES = 'x-batches';

// sound: the package exports the meta-schema, a JSON object, as `openrpcDocument`; its declarations describe only
// the TypeScript types of a document, not that value.
const { openrpcDocument } = openrpcMeta as unknown as { openrpcDocument: Record<string, unknown> };

let validateMeta: ReturnType<typeof compileKept> | undefined;

/** Checks a version's OpenRPC document; reports each problem through `report`. */
export function validateOpenRpc(
  v: LoadedVersion,
  report: (s: SourceFile, pointer: string, message: string) => void,
): void {
  const source = v.openrpc;
  if (!source) return;
  // The meta-schema is written for draft-07 tooling; read as 2020-12 without strict mode it checks the same shape.
  // A published meta-schema, not input: compiled without first checking it against 2020-12's, then kept
  // (compileKept): compiling it is most of this check's time.
  validateMeta ??= compileKept(withoutDialect(openrpcDocument), {
    strict: false,
    validateFormats: false,
    validateSchema: false,
  });
  const doc = source.value;
  if (!validateMeta(doc)) {
    const errors = validateMeta.errors ?? [];
    const deepest = Math.max(...errors.map((e) => e.instancePath.split('/').length));
    for (const e of errors.filter((x) => x.instancePath.split('/').length === deepest).slice(0, 10))
      report(source, e.instancePath, `not a valid OpenRPC 1.3 document: ${e.message ?? ''}`);
    return;
  }
  if (!isRecord(doc)) return;
  const meta = sharedAjv();
  checkDocumentRefs(v, source, report);
  // `x-protoJson` says the params are ProtoJSON, so fields may come under their proto names (model/proto-names.ts).
  if (isRecord(doc.info) && PROTO_JSON in doc.info && typeof doc.info[PROTO_JSON] !== 'boolean')
    report(
      source,
      `/info/${PROTO_JSON}`,
      `"${PROTO_JSON}" is true for a surface whose params are ProtoJSON, or false`,
    );
  if (isRecord(doc.info) && RPC_BATCHES in doc.info && typeof doc.info[RPC_BATCHES] !== 'boolean')
    report(
      source,
      `/info/${RPC_BATCHES}`,
      `"${RPC_BATCHES}" is false for a protocol that takes no batches, or true`,
    );
  const seen = new Map<string, string>();
  const methods = Array.isArray(doc.methods) ? doc.methods : [];
  methods.forEach((method, i) => {
    const at = `/methods/${i}`;
    if (!isRecord(method)) return;
    const name = String(method.name);
    // JSON-RPC 2.0 §4: names that begin with "rpc." are reserved for the protocol itself.
    if (name.startsWith('rpc.'))
      report(source, `${at}/name`, `"${name}": method names beginning with "rpc." are reserved`);
    if (seen.has(name)) report(source, `${at}/name`, `method "${name}" is also defined at ${seen.get(name)}`);
    else seen.set(name, at);
    const params = Array.isArray(method.params) ? method.params : [];
    const names = new Set<string>();
    params.forEach((p, j) => {
      const param = isRecord(p) && typeof p.$ref === 'string' ? resolveLocalPointer(doc, p.$ref.slice(1)) : p;
      if (!isRecord(param)) return;
      if (names.has(String(param.name)))
        report(source, `${at}/params/${j}/name`, `param "${param.name}" is listed twice`);
      names.add(String(param.name));
      checkInline(meta, source, `${at}/params/${j}/schema`, param.schema, report);
    });
    const result =
      isRecord(method.result) && typeof method.result.$ref === 'string'
        ? resolveLocalPointer(doc, method.result.$ref.slice(1))
        : method.result;
    if (isRecord(result)) checkInline(meta, source, `${at}/result/schema`, result.schema, report);
    const stream = method[RPC_STREAM];
    if (stream !== undefined && (typeof stream !== 'string' || !streamFraming(stream)))
      report(
        source,
        `${at}/${escapePointerToken(RPC_STREAM)}`,
        `"${RPC_STREAM}" names the stream's media type: text/event-stream or application/x-ndjson`,
      );
  });
}

function checkInline(
  meta: ReturnType<typeof createAjv>,
  source: SourceFile,
  pointer: string,
  schema: unknown,
  report: (s: SourceFile, pointer: string, message: string) => void,
): void {
  if (isRecord(schema) && !meta.validateSchema(schema))
    for (const e of meta.errors ?? [])
      report(source, pointer + e.instancePath, `not a valid 2020-12 schema: ${e.message ?? ''}`);
}

// The meta-schema points at an external JSON Schema meta-schema (meta.json-schema.tools) for every schema and `$ref`
// it holds. Those become "an object or a boolean" and "a string" here; schemas are meta-validated on their own, as
// 2020-12 (checkInline), the way the OpenAPI document's inline schemas are.
function withoutDialect(schema: Record<string, unknown>): object {
  const { $schema: _s, ...rest } = schema;
  const text = JSON.stringify(rest)
    .replaceAll('{"$ref":"https://meta.json-schema.tools"}', '{"type":["object","boolean"]}')
    .replaceAll(
      '{"$ref":"https://meta.json-schema.tools/#/definitions/JSONSchemaObject/properties/$ref"}',
      '{"type":"string"}',
    );
  if (text.includes('meta.json-schema.tools'))
    throw new Error('the OpenRPC meta-schema points somewhere new: update withoutDialect');
  return JSON.parse(text);
}
