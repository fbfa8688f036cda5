// An MCP server from one definition, every revision at one endpoint: `@agentproto/mcp/server`.
export type * from './definition.js';
export { type OriginPolicy, refuseForeign } from './origin.js';
export { capabilitiesOf, matchTemplate, rpcHandlersFor } from './rpc-handlers.js';
export { DEFAULT_SESSION_LIMITS, type Session, type SessionLimits, SessionStore } from './sessions.js';
export {
  createMcpApp,
  decodeHeaderValue,
  MCP_TRANSPORT_ERRORS,
  type McpAppOptions,
} from './streamable-http.js';
