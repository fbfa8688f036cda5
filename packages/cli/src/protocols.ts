import type { Validator } from '@agentproto/runtime';
import { UsageError } from './exit-codes.js';

/** A protocol version the CLI knows: its public types' validators. */
export interface ProtocolVersion {
  protocol: string;
  version: string;
  validators: Readonly<Record<string, Validator>>;
  /** The type of a plain JSON document when --type is not given, if the protocol has one obvious root. */
  rootType?: string;
}

interface ProtocolEntry {
  latest: string;
  versions: Readonly<Record<string, () => Promise<Readonly<Record<string, Validator>>>>>;
}

// Each protocol package's generated validators, loaded only when asked for.
const PROTOCOLS: Readonly<Record<string, ProtocolEntry>> = {
  'agent-protocol': {
    latest: 'v1',
    versions: { v1: async () => (await import('@agentproto/agent-protocol/v1')).validators },
  },
};

/** Resolves `<id>[@<version>]` to a protocol version; throws a UsageError listing what exists. */
export async function resolveProtocol(spec: string): Promise<ProtocolVersion> {
  const [id = '', requested] = spec.split('@');
  const entry = PROTOCOLS[id];
  if (!entry) throw new UsageError(`unknown protocol "${id}"; known: ${Object.keys(PROTOCOLS).join(', ')}`);
  const version = requested ?? entry.latest;
  const load = entry.versions[version];
  if (!load) {
    throw new UsageError(
      `protocol ${id} has no version "${version}"; known: ${Object.keys(entry.versions).join(', ')}`,
    );
  }
  const all = await load();
  // Inline validators (operation_where_index) are internal; public types are PascalCase.
  const validators = Object.fromEntries(Object.entries(all).filter(([name]) => /^[A-Z]/.test(name)));
  return { protocol: id, version, validators };
}
