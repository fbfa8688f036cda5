/**
 * Model Context Protocol: every revision schemas/mcp/protocol.yaml lists, generated from its schemas. Each revision's
 * code is its own entry point, `@agentproto/mcp/<revision>` (types, validators, the typed stubs and client).
 */

/** A typed client connected the way its revision wants (a handshake and a session, or `_meta` on every request). */
export {
  type ConnectedClient,
  connectMcp,
  type McpConnection,
  type McpConnectOptions,
} from './client/connect.js';
export { mirroredHeaders } from './client/mirrored-headers.js';
/** The same client over stdio: the server as a child process, one message per line on its input and output. */
export { connectMcpStdio, type McpStdioConnection, type McpStdioOptions } from './client/stdio.js';
export { GENERATED } from './generated/modules.js';
export { isVersion, LATEST, VERSIONS } from './generated/versions.js';
