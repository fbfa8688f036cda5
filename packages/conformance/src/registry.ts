import type { Validator } from '@agentproto/runtime';
import type { Suite } from './kit/run.js';
import type { ProtocolBinding } from './kit/types.js';
import { agentProtocolSuite } from './suites/agent-protocol.js';
import { agentProtocol2025Suite } from './suites/agent-protocol-2025.js';
import { agentscopeSuite } from './suites/agentscope.js';
import { fixieSuite } from './suites/fixie.js';

interface Entry {
  latest: string;
  versions: Readonly<Record<string, () => Promise<{ binding: ProtocolBinding; suite: Suite }>>>;
}

const asValidators = (v: unknown) => v as Readonly<Record<string, Validator>>;

// Each protocol's validators and stream rules, and its suite, loaded only when asked for.
const PROTOCOLS: Readonly<Record<string, Entry>> = {
  'agent-protocol': {
    latest: 'v1',
    versions: {
      v1: async () => ({
        binding: {
          protocol: 'agent-protocol',
          version: 'v1',
          validators: asValidators((await import('@agentproto/agent-protocol/v1')).validators),
        },
        suite: agentProtocolSuite,
      }),
      'v1-awaiting-input': async () => ({
        binding: {
          protocol: 'agent-protocol',
          version: 'v1-awaiting-input',
          validators: asValidators((await import('@agentproto/agent-protocol/v1-awaiting-input')).validators),
        },
        suite: agentProtocolSuite,
      }),
    },
  },
  agentscope: {
    latest: '1.1',
    versions: {
      '0.1': async () => {
        const m = await import('@agentproto/agentscope/0.1');
        return {
          binding: {
            protocol: 'agentscope',
            version: '0.1',
            validators: asValidators(m.validators),
            streamCheck: m.createStreamCheck,
          },
          suite: agentscopeSuite('0.1'),
        };
      },
      '1.1': async () => {
        const m = await import('@agentproto/agentscope/1.1');
        return {
          binding: {
            protocol: 'agentscope',
            version: '1.1',
            validators: asValidators(m.validators),
            streamCheck: m.createStreamCheck,
          },
          suite: agentscopeSuite('1.1'),
        };
      },
    },
  },
  fixie: {
    latest: '1.0',
    versions: {
      '1.0': async () => ({
        binding: {
          protocol: 'fixie',
          version: '1.0',
          validators: asValidators((await import('@agentproto/fixie/1.0')).validators),
        },
        suite: fixieSuite,
      }),
    },
  },
  'agent-protocol-2025': {
    latest: 'draft-2025-02',
    versions: {
      'draft-2025-02': async () => {
        const m = await import('@agentproto/agent-protocol-2025');
        return {
          binding: {
            protocol: 'agent-protocol-2025',
            version: 'draft-2025-02',
            validators: asValidators(m.validators),
            streamCheck: m.createStreamCheck,
          },
          suite: agentProtocol2025Suite,
        };
      },
    },
  },
};

/** A protocol or version the kit does not know, or bad options: a usage error (exit code 2). */
export class ConformanceUsageError extends Error {
  override name = 'ConformanceUsageError';
}

/** Resolves `<id>[@<version>]` to the protocol version's binding and suite. */
export async function resolveSuite(spec: string): Promise<{ binding: ProtocolBinding; suite: Suite }> {
  const [id = '', requested] = spec.split('@');
  const entry = PROTOCOLS[id];
  if (!entry)
    throw new ConformanceUsageError(`unknown protocol "${id}"; known: ${Object.keys(PROTOCOLS).join(', ')}`);
  const version = requested ?? entry.latest;
  const load = entry.versions[version];
  if (!load)
    throw new ConformanceUsageError(
      `protocol ${id} has no version "${version}"; known: ${Object.keys(entry.versions).join(', ')}`,
    );
  return load();
}

/** Every protocol and version the kit checks. */
export function knownProtocols(): Array<{ protocol: string; versions: string[] }> {
  return Object.entries(PROTOCOLS).map(([protocol, e]) => ({ protocol, versions: Object.keys(e.versions) }));
}
