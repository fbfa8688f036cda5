/**
 * `@agentproto/runtime/contract`: the contract between a protocol package and the tools. What a protocol version
 * hands them (its binding: validators, surface, suite, document rules, reference agent), the suite contract its checks
 * are written against, and what reading and checking its messages needs (pointers, stream framing, validators) —
 * without the HTTP server or client, so a validator (`agentproto validate`, a CI script) starts fast. Everything here
 * is also exported by the package's main entry.
 */

export type {
  DocumentIssue,
  DocumentRule,
  ProjectTemplate,
  ProtocolBinding,
  ReferenceAgent,
  ReferenceAgentOption,
  ReferenceAgentOptions,
  StartedReferenceAgent,
} from './contract/binding.js';
export { ReferenceAgentOptionError } from './contract/binding.js';
export {
  type CallOptions,
  type CheckDefinition,
  CheckFailure,
  CheckSkipped,
  type Exchange,
  excerpt,
  type Level,
  type Requirement,
  type RequirementSource,
  type StreamedExchange,
  type StreamOptions,
  type Suite,
  type SuiteContext,
  type SuiteProbe,
  type SuiteSession,
} from './contract/suite.js';
export {
  type AnsweredRpcError,
  type CheckedExchange,
  type ExpectedStatus,
  expectBody,
  expectContentType,
  expectEventStream,
  expectRpcError,
  expectRpcResult,
  expectStatus,
  expectStream,
  expectStreamRules,
  followUp,
  type RpcResultType,
  rpcErrorIn,
  streamValues,
} from './contract/suite-expect.js';
export type {
  JsonSchemaObject,
  Surface,
  SurfaceContent,
  SurfaceOperation,
  SurfaceParameter,
  SurfaceRpcMethod,
} from './contract/surface.js';
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  describeFetchError,
  FetchFailed,
  FetchTimeout,
  fetchWithin,
  MAX_BODY_BYTES,
} from './fetch-within.js';
export { printable } from './http/headers.js';
export { primaryIssue } from './pipeline/response-faults.js';
export { DEFAULT_PROXY_LIMITS, type ProxyLimits, resolveProxyLimits } from './proxy-limits.js';
export { FrameReader } from './streams/frame-reader.js';
export { type LineEnds, LineSplitter, type OnLine } from './streams/line-splitter.js';
export {
  DEFAULT_MAX_ITEM_LENGTH,
  eachNdjsonItem,
  type Frame,
  type ParsedFrame,
  parseFrame,
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
export { withTimeout } from './streams/timeout.js';
export { jsonErrorPosition, jsonLocator, type TextPosition } from './text/json-locate.js';
export {
  escapePointerToken,
  parsePointer,
  pointerOf,
  unescapePointerToken,
} from './text/pointer.js';
export { escapeXml } from './text/xml.js';
export { check, describeErrors, type ValidationIssue, type Validator } from './validation.js';
