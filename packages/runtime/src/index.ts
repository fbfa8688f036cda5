export { type BodyResult, type BodySpec, readBody } from './body/read-body.js';
export { readLimitedBytes } from './body/read-bytes.js';
export { findShapeProblem, type ShapeProblem } from './body/value-shape.js';
export { type ClientConnectionOptions, generatedClientOptions } from './client-options.js';
export type { DocumentIssue, DocumentRule, ProtocolBinding } from './documents/binding.js';
export { jsonErrorPosition, jsonLocator, type TextPosition } from './documents/json-locate.js';
export { toFormData } from './form-data.js';
export { contentDisposition, invalidHeader, parseDecimalInteger, printable } from './http/headers.js';
export { DEFAULT_LIMITS, type RequestLimits, resolveLimits } from './limits.js';
export {
  type AppOptions,
  type ContentSpec,
  createOperationApp,
  type HandlerInput,
  type HandlerResult,
  honoPath,
  type OperationSpec,
} from './operation-app.js';
export {
  PROBLEM_MEDIA_TYPE,
  type Problem,
  problem,
  problemResponse,
  type RequestLocation,
} from './problem.js';
export { type LocalServer, serveLocal } from './serve-local.js';
export { RetainedMap, type Retention } from './stores/retained-map.js';
export { type LineEnds, LineSplitter, type OnLine } from './streams/line-splitter.js';
export {
  DEFAULT_MAX_ITEM_LENGTH,
  eachNdjsonItem,
  type Frame,
  type ParsedFrame,
  parseFrames,
  type ReadItemsOptions,
  readFrames,
  readItems,
  readLines,
  type StreamFraming,
  StreamReadError,
} from './streams/read-frames.js';
export {
  type ItemPosition,
  type StreamCheck,
  type StreamIssue,
  streamIssue,
} from './streams/stream-check.js';
export { encodeItem, type WriteStreamOptions, writeStream } from './streams/write-stream.js';
export { check, describeErrors, type ValidationIssue, type Validator } from './validation.js';
