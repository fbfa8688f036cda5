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
import { specFiles } from '../../test/support/spec-files.js';
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
  return out;
}
