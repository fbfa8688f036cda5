import type { TemplateManifest } from '../load/load-manifests.js';
import { type LoadedVersion, schemaId } from '../load/load-protocols.js';
import { HTTP_METHODS, type HttpMethod } from '../util/http-methods.js';
import { isRecord, mapRefs, resolveLocalPointer } from '../util/json.js';
import { ITEM_SCHEMA, SSE_ID_FIELD, type StreamFraming, streamFraming } from '../util/media-types.js';

/** A named type: one schema file. */
export interface TypeModel {
  name: string;
  /** The schema's `$id`. */
  id: string;
  /** The schema file, relative to the repository root. */
  file: string;
  description: string;
  schema: Record<string, unknown>;
}

/** One path or query parameter. */
export interface ParameterModel {
  name: string;
  required: boolean;
  hasDefault: boolean;
  description?: string;
  /** JSON Schema with every `$ref` pointing at a type's `$id`. */
  schema: Record<string, unknown>;
  /** For a number or integer parameter: which, so the server accepts only its canonical decimal spelling. */
  decimal?: 'integer' | 'number';
}

/** The items of a streamed body (`text/event-stream`, NDJSON), as declared by the media type's `x-itemSchema`. */
export interface StreamItemModel {
  /** `sse`: one `data:` field per item; `ndjson`: one JSON text per line. */
  framing: StreamFraming;
  /** The public type each item has, when the item schema is a reference to one. */
  typeName?: string;
  /** JSON Schema with every `$ref` pointing at a type's `$id`. */
  schema: Record<string, unknown>;
  /** For SSE: the item field sent as each event's `id:` line (`x-sseIdField`), so clients can resume. */
  idField?: string;
}

/** One media type of a request body or response. */
export interface ContentModel {
  mediaType: string;
  /**
   * `json`: parsed and validated as JSON; `yaml`: the same data written as YAML; `form`: multipart or urlencoded
   * fields; `binary`: bytes, unvalidated; `stream`: a sequence of JSON items, each validated (see `item`).
   */
  kind: 'json' | 'yaml' | 'form' | 'binary' | 'stream';
  /** The public type the body has, when its schema is a reference to one. */
  typeName?: string;
  /** JSON Schema with every `$ref` pointing at a type's `$id`. */
  schema: Record<string, unknown>;
  /** For forms: the fields that carry files (binary strings). */
  fileFields: string[];
  /** For streams: what each item is. */
  item?: StreamItemModel;
}

/** One response an operation declares. */
export interface ResponseModel {
  /** `"200"`, `"404"`, … or `"default"`. */
  status: string;
  description: string;
  contents: ContentModel[];
}

/** One operation of the HTTP surface. */
export interface OperationModel {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path template, as `/tasks/{task_id}`. */
  path: string;
  summary: string;
  pathParams: ParameterModel[];
  queryParams: ParameterModel[];
  requestBody?: { required: boolean; contents: ContentModel[] };
  responses: ResponseModel[];
}

/** What the protocol's manifest says of a version: the binding's identity and the package modules it gathers. */
export interface BindingModel {
  /** The version's title (`Fixie Agent Protocol 1.0`). */
  title: string;
  /** The npm package the code is generated into, and its folder relative to the repository root. */
  package: string;
  packageDir: string;
  /** Modules of the package, relative to its folder (`src/binding/1.0.ts`). */
  documentRules?: string;
  streamCheck?: string;
  suite?: string;
  template?: TemplateManifest;
}

/** Model stage output: the plain-data form every emitter reads. Sorted and deterministic. */
export interface ProtocolModel {
  protocol: string;
  version: string;
  binding: BindingModel;
  /** Source folder, relative to the repository root. */
  dir: string;
  /** Source of the HTTP surface, relative to the repository root. */
  openapiFile: string;
  title: string;
  /** PascalCase of the protocol id: the stem of the generated factory and interface names. */
  stem: string;
  types: TypeModel[];
  operations: OperationModel[];
  /**
   * The OpenAPI document with every schema file inlined under components.schemas and every reference made local:
   * what tools that want one self-contained document (openapi-typescript) read.
   */
  bundle: Record<string, unknown>;
}

/** Model stage: turns a validated protocol version into the plain-data model the emitters share. */
export function buildModel(v: LoadedVersion): ProtocolModel {
  const doc = v.openapi.value as Record<string, unknown>;
  const ids = new Map(v.schemas.map((s) => [s.typeName, schemaId(v.protocol, v.version, s.typeName)]));
  const types: TypeModel[] = v.schemas.map((s) => {
    const schema = s.value as Record<string, unknown>;
    return {
      name: s.typeName,
      id: ids.get(s.typeName) ?? '',
      file: s.file,
      description: String(schema.description ?? ''),
      schema,
    };
  });

  // References inside the OpenAPI document point at components; validators want the types' `$id`s.
  const toIdRefs = (value: unknown) =>
    mapRefs(value, (ref) => {
      const m = /^#\/components\/schemas\/([^/]+)(\/.*)?$/.exec(ref);
      const id = m?.[1] ? ids.get(m[1]) : undefined;
      return id ? `${id}${m?.[2] ? `#${m[2]}` : ''}` : ref;
    }) as Record<string, unknown>;
  const deref = (x: unknown): unknown =>
    isRecord(x) && typeof x.$ref === 'string' && x.$ref.startsWith('#/')
      ? deref(resolveLocalPointer(doc, x.$ref.slice(1)))
      : x;
  const typeOf = (schema: unknown): string | undefined => {
    const m =
      isRecord(schema) && typeof schema.$ref === 'string'
        ? /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)
        : null;
    return m?.[1] && ids.has(m[1]) ? m[1] : undefined;
  };
  const contentsOf = (content: unknown): ContentModel[] =>
    Object.entries(isRecord(content) ? content : {})
      .map(([mediaType, media]) => {
        const raw = isRecord(media) && isRecord(media.schema) ? media.schema : {};
        const typeName = typeOf(raw);
        const resolved = deref(raw);
        const kind = contentKind(mediaType);
        const fileFields =
          kind === 'form'
            ? binaryProperties(typeName ? types.find((t) => t.name === typeName)?.schema : resolved)
            : [];
        const model: ContentModel = {
          mediaType,
          kind,
          ...(typeName ? { typeName } : {}),
          schema: toIdRefs(raw),
          fileFields,
        };
        const framing = streamFraming(mediaType);
        const itemSchema = isRecord(media) ? media[ITEM_SCHEMA] : undefined;
        if (framing && isRecord(itemSchema)) {
          const itemType = typeOf(itemSchema);
          const idField = isRecord(media) ? media[SSE_ID_FIELD] : undefined;
          model.item = {
            framing,
            ...(itemType ? { typeName: itemType } : {}),
            schema: toIdRefs(itemSchema),
            ...(typeof idField === 'string' ? { idField } : {}),
          };
        }
        return model;
      })
      .sort((a, b) => a.mediaType.localeCompare(b.mediaType));

  const operations: OperationModel[] = [];
  for (const [p, rawItem] of Object.entries(isRecord(doc.paths) ? doc.paths : {})) {
    const item = isRecord(rawItem) ? rawItem : {};
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const params = [...asArray(item.parameters), ...asArray(op.parameters)].map(deref).filter(isRecord);
      const paramModel = (where: string) =>
        params
          .filter((x) => x.in === where)
          .map((x) => {
            const schema = isRecord(x.schema) ? x.schema : {};
            const param: ParameterModel = {
              name: String(x.name),
              required: x.required === true,
              hasDefault: 'default' in (deref(schema) as object),
              schema: toIdRefs(schema),
            };
            if (typeof x.description === 'string') param.description = x.description;
            const type = (deref(schema) as Record<string, unknown>).type;
            if (type === 'integer' || type === 'number') param.decimal = type;
            return param;
          });
      const body = deref(op.requestBody);
      const operation: OperationModel = {
        operationId: String(op.operationId),
        method,
        path: p,
        summary: String(op.summary ?? ''),
        pathParams: paramModel('path'),
        queryParams: paramModel('query'),
        responses: Object.entries(isRecord(op.responses) ? op.responses : {})
          .map(([status, r]) => {
            const res = deref(r);
            return {
              status,
              description: isRecord(res) ? String(res.description ?? '') : '',
              contents: contentsOf(isRecord(res) ? res.content : undefined),
            };
          })
          .sort((a, b) => a.status.localeCompare(b.status)),
      };
      if (isRecord(body))
        operation.requestBody = { required: body.required === true, contents: contentsOf(body.content) };
      operations.push(operation);
    }
  }
  operations.sort((a, b) => a.operationId.localeCompare(b.operationId));

  const info = isRecord(doc.info) ? doc.info : {};
  const { title, documentRules, streamCheck, suite, template } = v.entry;
  return {
    protocol: v.protocol,
    version: v.version,
    binding: {
      title,
      package: v.manifest.package,
      packageDir: v.packageDir,
      ...(documentRules ? { documentRules } : {}),
      ...(streamCheck ? { streamCheck } : {}),
      ...(suite ? { suite } : {}),
      ...(template ? { template } : {}),
    },
    dir: v.dir,
    openapiFile: v.openapi.file,
    title: String(info.title ?? v.protocol),
    stem: pascalCase(v.protocol),
    types,
    operations,
    bundle: bundle(doc, types),
  };
}

function bundle(doc: Record<string, unknown>, types: TypeModel[]): Record<string, unknown> {
  const byFile = new Map(types.map((t) => [`${t.name}.schema.json`, t.name]));
  const local = (ref: string, self: string) => {
    const [file = '', fragment] = ref.split('#');
    const name =
      file === '' ? self : (byFile.get(file.replace(/^\.\//, '')) ?? byFile.get(file.split('/').pop() ?? ''));
    return name ? `#/components/schemas/${name}${fragment ?? ''}` : ref;
  };
  const schemas: Record<string, unknown> = {};
  for (const t of types) {
    const { $schema: _s, $id: _i, ...rest } = t.schema;
    schemas[t.name] = mapRefs(rest, (ref) => local(ref, t.name));
  }
  const components = isRecord(doc.components) ? doc.components : {};
  return { ...doc, components: { ...components, schemas } };
}

function contentKind(mediaType: string): ContentModel['kind'] {
  if (streamFraming(mediaType)) return 'stream';
  if (/^(application|text)\/((.+\+)?yaml|x-yaml)$/.test(mediaType)) return 'yaml';
  if (/^application\/(.+\+)?json$/.test(mediaType)) return 'json';
  if (mediaType === 'multipart/form-data' || mediaType === 'application/x-www-form-urlencoded') return 'form';
  return 'binary';
}

/** The properties of an object schema whose values are files (`contentMediaType` or `format: binary`). */
function binaryProperties(schema: unknown): string[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([, p]) => isRecord(p) && (typeof p.contentMediaType === 'string' || p.format === 'binary'))
    .map(([k]) => k)
    .sort();
}

function asArray(x: unknown): unknown[] {
  return Array.isArray(x) ? x : [];
}

/** `agent-protocol` → `AgentProtocol`; `agent-protocol-2025` → `AgentProtocol2025`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');
}
