// The reference MCP server: the catalogue served over Streamable HTTP at /mcp, every revision at once.
import type { Hono } from 'hono';
import { createMcpApp, type McpAppOptions } from '../server/streamable-http.js';
import { referenceCatalog } from './catalog.js';

export { referenceCatalog } from './catalog.js';

/** The reference server's app; options as for any MCP server app (createMcpApp). */
export function createReferenceServer(options: McpAppOptions = {}): { app: Hono } {
  return { app: createMcpApp(referenceCatalog, options) };
}
