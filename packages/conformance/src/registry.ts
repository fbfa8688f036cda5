// The protocols and versions the kit (and the agentproto CLI, which resolves `--protocol` here) knows. Each version
// names two modules, both loaded only when that version is asked for: the protocol package's binding (validators,
// stream check, document rules; no server code) and the kit's suite. The protocol packages are optional peers of
// this one: a user of one protocol installs its package beside the kit and never installs or loads the others.
import type { ProtocolBinding } from '@agentproto/runtime/documents';
import type { Suite } from './kit/run.js';

interface VersionEntry {
  binding: () => Promise<{ binding: ProtocolBinding }>;
  suite: () => Promise<Suite>;
}

interface Entry {
  /** The package that holds the protocol's bindings: an optional peer of this one. */
  pkg: string;
  latest: string;
  versions: Readonly<Record<string, VersionEntry>>;
}

const PROTOCOLS: Readonly<Record<string, Entry>> = {
  'agent-protocol': {
    pkg: '@agentproto/agent-protocol',
    latest: 'v1',
    versions: {
      v1: {
        binding: () => import('@agentproto/agent-protocol/v1/binding'),
        suite: async () => (await import('./suites/agent-protocol.js')).agentProtocolSuite,
      },
      'v1-awaiting-input': {
        binding: () => import('@agentproto/agent-protocol/v1-awaiting-input/binding'),
        suite: async () => (await import('./suites/agent-protocol.js')).agentProtocolSuite,
      },
    },
  },
  agentscope: {
    pkg: '@agentproto/agentscope',
    latest: '1.1',
    versions: {
      '0.1': {
        binding: () => import('@agentproto/agentscope/0.1/binding'),
        suite: async () => (await import('./suites/agentscope.js')).agentscopeSuite('0.1'),
      },
      '1.1': {
        binding: () => import('@agentproto/agentscope/1.1/binding'),
        suite: async () => (await import('./suites/agentscope.js')).agentscopeSuite('1.1'),
      },
    },
  },
  fixie: {
    pkg: '@agentproto/fixie',
    latest: '1.0',
    versions: {
      '1.0': {
        binding: () => import('@agentproto/fixie/1.0/binding'),
        suite: async () => (await import('./suites/fixie.js')).fixieSuite,
      },
    },
  },
  'agent-protocol-2025': {
    pkg: '@agentproto/agent-protocol-2025',
    latest: 'draft-2025-02',
    versions: {
      'draft-2025-02': {
        binding: () => import('@agentproto/agent-protocol-2025/draft-2025-02/binding'),
        suite: async () => (await import('./suites/agent-protocol-2025.js')).agentProtocol2025Suite,
      },
    },
  },
};

/** A protocol or version the kit does not know, or bad options: a usage error (exit code 2). */
export class ConformanceUsageError extends Error {
  override name = 'ConformanceUsageError';
}

/** Finds `<id>[@<version>]`, or throws a ConformanceUsageError listing what exists. */
function lookup(spec: string): { id: string; entry: Entry; version: string; found: VersionEntry } {
  const [id = '', requested] = spec.split('@');
  const entry = PROTOCOLS[id];
  if (!entry)
    throw new ConformanceUsageError(`unknown protocol "${id}"; known: ${Object.keys(PROTOCOLS).join(', ')}`);
  const version = requested ?? entry.latest;
  const found = entry.versions[version];
  if (!found)
    throw new ConformanceUsageError(
      `protocol ${id} has no version "${version}"; known: ${Object.keys(entry.versions).join(', ')}`,
    );
  return { id, entry, version, found };
}

/** Loads one module of a protocol version, naming the package to install when it is missing. */
async function load<T>(entry: Entry, id: string, loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(entry.pkg))
      throw new ConformanceUsageError(
        `checking ${id} needs ${entry.pkg}, which is not installed: npm install --save-dev ${entry.pkg}`,
      );
    throw error;
  }
}

/** Resolves `<id>[@<version>]` to the protocol version's binding only: what validating messages needs. */
export async function resolveBinding(spec: string): Promise<ProtocolBinding> {
  const { id, entry, found } = lookup(spec);
  return (await load(entry, id, found.binding)).binding;
}

/** Resolves `<id>[@<version>]` to the protocol version's binding and the kit's suite for it. */
export async function resolveSuite(spec: string): Promise<{ binding: ProtocolBinding; suite: Suite }> {
  const { id, entry, found } = lookup(spec);
  const { binding } = await load(entry, id, found.binding);
  return { binding, suite: await found.suite() };
}

/** Every protocol the kit checks: its package, versions and latest version. */
export function knownProtocols(): Array<{
  protocol: string;
  pkg: string;
  latest: string;
  versions: string[];
}> {
  return Object.entries(PROTOCOLS).map(([protocol, e]) => ({
    protocol,
    pkg: e.pkg,
    latest: e.latest,
    versions: Object.keys(e.versions),
  }));
}
