// A protocol version's HTTP surface as data: every operation with its parameters, request bodies and declared
// responses, and the JSON Schemas they name. Generated per version (`surface.ts`) and loaded only by the conformance
// kit's schema-driven checks, which build requests from it and judge the answers against it.
import type { StreamFraming } from '../streams/read-frames.js';

/** A JSON Schema (2020-12) as plain data; every `$ref` names a type's `$id`. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** One media type of a request body or a response. */
export interface SurfaceContent {
  mediaType: string;
  /** How the body is written: JSON, YAML, a form, bytes, or a stream of JSON items. */
  kind: 'json' | 'yaml' | 'form' | 'binary' | 'stream';
  /** The public type of the body (or of a stream's items), when it names one: its validator's name in the binding. */
  typeName?: string;
  schema: JsonSchemaObject;
  /** For forms: the fields that carry files. */
  fileFields?: readonly string[];
  /** For streams: how items are framed, and their type. */
  item?: { framing: StreamFraming; typeName?: string };
}

/** A path or query parameter. */
export interface SurfaceParameter {
  name: string;
  required: boolean;
  schema: JsonSchemaObject;
}

/** One operation. */
export interface SurfaceOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The OpenAPI path template, relative to the agent's root (`/tasks/{task_id}`). */
  path: string;
  pathParams: readonly SurfaceParameter[];
  queryParams: readonly SurfaceParameter[];
  body?: { required: boolean; contents: readonly SurfaceContent[] };
  /** Declared answers by response key: a status (`"200"`), a range (`"4XX"`) or `"default"`. */
  responses: Readonly<Record<string, readonly SurfaceContent[]>>;
}

/** One method of a JSON-RPC surface. */
export interface SurfaceRpcMethod {
  name: string;
  /** The params as one object by name, and the validator that checks them (`rpc_SendMessage_params`). */
  params: JsonSchemaObject;
  paramsType: string;
  /** The validator of the result (a public type, or `rpc_<method>_result`). */
  resultType: string;
  /** For a result that is one of several public types (`anyOf`/`oneOf` of them): their names. */
  resultTypes?: readonly string[];
  /** For a method whose answer is a stream: how it is framed (each item one response). */
  stream?: StreamFraming;
  /** The error codes the method declares. */
  errors: readonly number[];
}

/** The HTTP surface of one protocol version. */
export interface Surface {
  /** Every type's schema, each with its `$id`. */
  schemas: readonly JsonSchemaObject[];
  operations: readonly SurfaceOperation[];
  /** The version's examples of the types request bodies have, by type name: valid requests to start from. */
  examples: Readonly<Record<string, readonly unknown[]>>;
  /**
   * The JSON-RPC surface, when the version has one (`openrpc.json`): its methods, and every error code the document
   * names (`components.errors`), which any method may answer with.
   */
  rpc?: {
    /** The endpoint's path, relative to the agent's root, as the document's first server names it (`/jsonrpc`). */
    endpoint?: string;
    /** `false` when the protocol takes no JSON-RPC batches (the document's `info` says `x-batches: false`). */
    batches?: boolean;
    methods: readonly SurfaceRpcMethod[];
    errors: readonly number[];
  };
}
