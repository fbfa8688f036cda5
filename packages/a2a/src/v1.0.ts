/**
 * A2A 1.0: the generated types, validators, Hono stubs and clients of the HTTP+JSON binding and the JSON-RPC binding.
 */
export * from './generated/1.0/index.js';

/** This module's protocol version. */
export const VERSION = '1.0';
