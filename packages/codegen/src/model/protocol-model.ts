// The model stage's output: the plain-data form every emitter reads, sorted and deterministic. One file per OpenAPI
// construct builds it: types.ts (schema files), references.ts (how the document's references are read),
// contents.ts (media types and stream items), parameters.ts, operations.ts (paths, operations, responses) and
// bundle.ts (one self-contained document for openapi-typescript); build-model.ts puts them together.
import type { ProtoNameNode } from '@agentproto/runtime';
import type { Requirement } from '@agentproto/runtime/contract';
import type { TemplateManifest } from '../load/load-manifests.js';
import type { HttpMethod } from '../util/http-methods.js';
import type { StreamFraming } from '../util/media-types.js';

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
  /** For a boolean parameter: true, so the server also takes `True`/`False` and `1`/`0` (the runtime's rule). */
  boolean?: true;
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
  /** For a JSON request body of a ProtoJSON document: its node in the model's `protoNames` table. */
  protoNames?: number;
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
  /** For a ProtoJSON document: the query parameters whose proto name differs, proto name → declared name. */
  queryProtoNames?: Record<string, string>;
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
  /** The manifest's `discoveryUrls`: type name → pointers of the agent's own URLs in documents of that type. */
  discoveryUrls?: Record<string, string[]>;
  suite?: string;
  template?: TemplateManifest;
  referenceAgent?: string;
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
  /** The version's examples of the types request bodies have, by type name (the schema-driven checks start there). */
  requestExamples: Record<string, unknown[]>;
  /** The version's requirements (what its conformance suite's checks cover), when it has a `requirements.yaml`. */
  requirements?: { file: string; list: Requirement[] };
  /** What the version requires of a client (what its client scenarios' checks cover): `client-requirements.yaml`. */
  clientRequirements?: { file: string; list: Requirement[] };
  operations: OperationModel[];
  /**
   * When the document's `info` says `x-protoJson: true` (its bodies are ProtoJSON): where the request bodies' fields
   * may come under their proto names, as the table the generated routes hand the runtime.
   */
  protoNames?: ProtoNameNode[];
  /** The JSON-RPC surface, when the version has an `openrpc.json`. */
  rpc?: RpcModel;
  /**
   * The OpenAPI document with every schema file inlined under components.schemas and every reference made local:
   * what tools that want one self-contained document (openapi-typescript) read.
   */
  bundle: Record<string, unknown>;
}

/** One param of a JSON-RPC method (OpenRPC Content Descriptor). */
export interface RpcParamModel {
  name: string;
  required: boolean;
  description?: string;
  /** JSON Schema with every `$ref` pointing at a type's `$id`. */
  schema: Record<string, unknown>;
}

/** One method of a JSON-RPC surface (OpenRPC Method Object). */
export interface RpcMethodModel {
  name: string;
  summary: string;
  /** How params may be sent: as an object by name, as an array by position, or either (OpenRPC's default). */
  paramStructure: 'by-name' | 'by-position' | 'either';
  params: RpcParamModel[];
  /**
   * The result: its public type when it is exactly a reference to one, the public types of a result that is one of
   * several (`anyOf`/`oneOf` of references: `union`), and its schema (refs as `$id`s).
   */
  result: { typeName?: string; union?: string[]; schema: Record<string, unknown> };
  /** The errors the method declares, sorted by code. */
  errors: Array<{ code: number; message: string }>;
  /** For a method whose answer is a stream (`x-stream`): how the stream is framed; each item is one result. */
  stream?: StreamFraming;
  /** A method the document gives no result (OpenRPC's notification): it is sent without an id and never answered. */
  notification?: true;
  /** For a ProtoJSON document: the node of its params (an object of them) in the surface's `protoNames` table. */
  protoNames?: number;
}

/** A version's JSON-RPC surface, from its `openrpc.json`. */
export interface RpcModel {
  /** Source file, relative to the repository root. */
  file: string;
  /** The path of the endpoint the document's first server names, relative to the agent's root. */
  endpoint?: string;
  /** The methods, sorted by name. */
  methods: RpcMethodModel[];
  /** Every error the document names in `components.errors`, sorted by code. */
  errors: Array<{ name: string; code: number; message: string }>;
  /** `false` when the document's `info` says `x-batches: false`: the protocol takes no JSON-RPC batches. */
  batches?: false;
  /**
   * When the document's `info` says `x-protoJson: true` (its params are ProtoJSON): where fields of the params may
   * come under their proto names, one table for every method (ProtoNameNode, @agentproto/runtime).
   */
  protoNames?: ProtoNameNode[];
}
