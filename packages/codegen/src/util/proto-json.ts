// The keyword by which an OpenAPI document says its bodies are ProtoJSON (the JSON mapping of protobuf messages), read
// by the validate stage (it must be a boolean) and the model stage (model/proto-names.ts).

/** In the document's `info`: `true` when request and response bodies are ProtoJSON. */
export const PROTO_JSON = 'x-protoJson';
