/**
 * Model Context Protocol: every revision schemas/mcp/protocol.yaml lists, generated from its schemas. Each revision's
 * code is its own entry point, `@agentproto/mcp/<revision>` (types, validators, the typed stubs and client).
 */
export { GENERATED } from './generated/modules.js';
export { isVersion, LATEST, VERSIONS } from './generated/versions.js';
