// What `pnpm fuzz` runs against: every protocol version's validators, and every reference agent's routes.
import path from 'node:path';
import { createReferenceAgent as createA2aReference } from '@agentproto/a2a/reference-agent';
import {
  createReferenceAgent as apAgent,
  createCuttingBoardAgent,
} from '@agentproto/agent-protocol/reference-agent';
import { createReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import { buildModel, type LoadedVersion, loadProtocols } from '@agentproto/codegen';
import {
  createReferenceStandaloneAgent,
  createReferenceAgent as fixieAgent,
} from '@agentproto/fixie/reference-agent';
import { createReferenceServer as createMcpReference } from '@agentproto/mcp/reference-agent';
import { specFiles } from '../../test/support/spec-files.js';
import { isObjectLike } from './mutate.js';
import type { RouteTarget } from './routes.js';

/** A protocol version, with its examples by type (an extension's include its base's). */
export interface FuzzVersion {
  loaded: LoadedVersion;
  examples: Map<string, unknown[]>;
}

export async function fuzzVersions(root: string, only?: readonly string[]): Promise<FuzzVersion[]> {
  const loaded = await loadProtocols(root, only);
  return loaded.map((v) => {
    const examples = new Map<string, unknown[]>();
    const dirs = [v.dir, ...(v.extends ? [path.join(path.dirname(v.dir), v.extends)] : [])];
    for (const dir of dirs)
      for (const e of specFiles(
        { protocol: v.protocol, version: v.version, dir: path.join(root, dir) },
        'examples',
      ))
        examples.set(e.typeName, [...(examples.get(e.typeName) ?? []), e.value]);
    return { loaded: v, examples };
  });
}

/** The headers an MCP POST repeats from its body: the revision, the method, and the tool, prompt or resource. */
function mirroredHeaders(version: string): (body: unknown) => Record<string, string> {
  return (body) => {
    const b = isObjectLike(body) ? body : {};
    const params = isObjectLike(b.params) ? b.params : {};
    const name = b.method === 'resources/read' ? params.uri : params.name;
    return {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      ...(typeof b.method === 'string' ? { 'mcp-method': b.method } : {}),
      ...(typeof name === 'string' && /^[\x20-\x7E]*$/.test(name) ? { 'mcp-name': name } : {}),
    };
  };
}

/** The reference agents, each with the model of the version it serves. */
export function routeTargets(
  versions: readonly FuzzVersion[],
): Array<{ target: RouteTarget; version: FuzzVersion }> {
  const find = (protocol: string, version: string) => {
    const v = versions.find((x) => x.loaded.protocol === protocol && x.loaded.version === version);
    return v ? { version: v, model: buildModel(v.loaded) } : undefined;
  };
  const out: Array<{ target: RouteTarget; version: FuzzVersion }> = [];
  const add = (protocol: string, version: string, target: Omit<RouteTarget, 'model'>) => {
    const found = find(protocol, version);
    if (found) out.push({ target: { ...target, model: found.model }, version: found.version });
  };
  const tasks = { method: 'GET', path: '/ap/v1/agent/tasks' };
  add('agent-protocol', 'v1', { name: 'agent-protocol@v1', app: () => apAgent(), probe: tasks });
  add('agent-protocol', 'v1-awaiting-input', {
    name: 'agent-protocol@v1-awaiting-input',
    app: () => createCuttingBoardAgent(),
    probe: tasks,
  });
  for (const version of ['0.1', '1.1'] as const)
    add('agentscope', version, {
      name: `agentscope@${version}`,
      app: () => scopeAgent(version),
      probe: { method: 'GET', path: '/health' },
    });
  const fixieKnown = { func: ['genrand', 'roll', 'faq', 'fixie_utc_datetime'] };
  add('fixie', '1.0', {
    name: 'fixie@1.0 code-shot',
    app: () => fixieAgent(),
    known: fixieKnown,
    probe: { method: 'GET', path: '/' },
  });
  add('fixie', '1.0', {
    name: 'fixie@1.0 standalone',
    app: () => createReferenceStandaloneAgent(),
    known: fixieKnown,
    probe: { method: 'GET', path: '/' },
  });
  add('agent-protocol-2025', 'draft-2025-02', {
    name: 'agent-protocol-2025@draft-2025-02',
    app: () => createReferenceServer(),
    known: { agent: ['assistant', 'echo'] },
    probe: { method: 'GET', path: '/assistant/describe' },
    // The assistant's "fail" command throws on purpose; the runtime logs it and ends the request `error`.
    expectedLogs: /asked to fail/,
  });
  add('a2a', '1.0', {
    name: 'a2a@1.0',
    // Requests without the A2A-Version header are taken as 1.0, so the fuzzer's requests reach the handlers.
    app: () => createA2aReference({ assumeVersion: '1.0', chunkDelayMs: 0, onError: () => {} }).app,
    probe: { method: 'GET', path: '/.well-known/agent-card.json' },
  });
  add('a2a', '0.3', {
    name: 'a2a@0.3',
    // The same agent: requests without the header are 0.3, answered through the translation under /v1/.
    app: () => createA2aReference({ chunkDelayMs: 0, onError: () => {} }).app,
    probe: { method: 'GET', path: '/.well-known/agent-card.json' },
  });
  // One MCP server answers both revisions; after the run it still answers initialize. At 2025-11-25 it keeps no
  // sessions here, so that the fuzzed requests reach the handlers instead of all stopping at "no Mcp-Session-Id".
  for (const version of ['2025-11-25', '2026-07-28'])
    add('mcp', version, {
      name: `mcp@${version}`,
      app: () =>
        createMcpReference({ onError: () => {}, ...(version === '2025-11-25' ? { sessions: false } : {}) })
          .app,
      // A revision without a handshake needs its headers to agree with the body to reach a handler at all.
      ...(version === '2026-07-28' ? { headersFor: mirroredHeaders(version) } : {}),
      probe: {
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'fuzz', version: '1' },
          },
        }),
      },
    });
  return out;
}
