// Every reference agent we ship, with the protocol version it speaks: what the conformance suite is run against, and
// what the inspector is tried on in a browser.
import { createReferenceAgent as createA2aReference } from '@agentproto/a2a/reference-agent';
import {
  createReferenceAgent as apAgent,
  createCuttingBoardAgent as cuttingBoard,
} from '@agentproto/agent-protocol/reference-agent';
import { createReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import {
  createReferenceStandaloneAgent,
  createReferenceAgent as fixieAgent,
} from '@agentproto/fixie/reference-agent';
import { createReferenceServer as createMcpReference } from '@agentproto/mcp/reference-agent';

/** Anything that answers requests: a Hono app, a server's fetch. */
export type App = { fetch: (r: Request) => Response | Promise<Response> };

/** Each reference agent: a name, the protocol version (`id@version`) it speaks, and a way to make a fresh one. */
export const REFERENCE_AGENTS: Array<[string, { protocol: string; app: () => App }]> = [
  ['agent-protocol v1', { protocol: 'agent-protocol@v1', app: apAgent }],
  [
    'agent-protocol v1 (awaiting_input, an agent that never asks)',
    { protocol: 'agent-protocol@v1-awaiting-input', app: apAgent },
  ],
  [
    'agent-protocol v1 (awaiting_input, the cutting board)',
    { protocol: 'agent-protocol@v1-awaiting-input', app: () => cuttingBoard() },
  ],
  ['agentscope 0.1', { protocol: 'agentscope@0.1', app: () => scopeAgent('0.1') }],
  ['agentscope 1.1', { protocol: 'agentscope@1.1', app: () => scopeAgent('1.1') }],
  ['fixie code-shot', { protocol: 'fixie', app: () => fixieAgent() }],
  ['fixie standalone', { protocol: 'fixie', app: () => createReferenceStandaloneAgent() }],
  ['agent-protocol-2025', { protocol: 'agent-protocol-2025', app: createReferenceServer }],
  // Allowed to call 127.0.0.1, where the kit's push checks run their webhook receiver (--push-allow 127.0.0.1).
  [
    'a2a',
    {
      protocol: 'a2a',
      app: () =>
        createA2aReference({ chunkDelayMs: 0, onError: () => {}, push: { allowHosts: ['127.0.0.1'] } }).app,
    },
  ],
  // The same agent, as a 0.3 client meets it: through the generated translation.
  [
    'a2a@0.3',
    { protocol: 'a2a@0.3', app: () => createA2aReference({ chunkDelayMs: 0, onError: () => {} }).app },
  ],
  // One MCP server answers both revisions, each as its clients speak it.
  ['mcp 2025-11-25', { protocol: 'mcp@2025-11-25', app: () => createMcpReference().app }],
  ['mcp 2026-07-28', { protocol: 'mcp@2026-07-28', app: () => createMcpReference().app }],
];
