// An MCP server: who it is, its tools, resources and prompts. `createMcpApp` serves it at /mcp to clients of every
// revision (2025-11-25 with `initialize` and a session, 2026-07-28 stateless), checking Origin and Host first.
import { createMcpApp } from '@agentproto/mcp/server';

export const app = createMcpApp({
  info: { name: 'my-mcp-server', version: '0.1.0' },
  instructions: 'Greets people by name.',
  tools: [
    {
      // TODO: your tools. `inputSchema` is checked before `call` runs; a throw becomes an error result the model reads.
      name: 'greet',
      description: 'Says hello to someone.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      call: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${String(name)}!` }] }),
    },
  ],
  resources: [
    {
      uri: 'memo://readme',
      name: 'readme',
      description: 'What this server does.',
      mimeType: 'text/plain',
      read: () => [{ uri: 'memo://readme', mimeType: 'text/plain', text: 'This server greets people.' }],
    },
  ],
  prompts: [
    {
      name: 'welcome',
      description: 'Asks the model to welcome a new user.',
      get: () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'Welcome the new user warmly.' } }],
      }),
    },
  ],
});
