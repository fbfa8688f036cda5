// Resolves `--protocol <id>[@<version>]` for the commands that check messages, through `@agentproto/registry`, so the
// CLI and the kit always know the same protocols. Only the version's binding is loaded: its validators, stream check
// and document rules, never a server or client.
import {
  knownProtocols,
  RegistryLookupError,
  resolveBinding as resolveRegistered,
} from '@agentproto/registry';
import type { ProtocolBinding } from '@agentproto/runtime/contract';
import { UsageError } from './exit-codes.js';

/** A protocol version as the CLI checks it: its binding, with only the public types' validators. */
export type ProtocolVersion = ProtocolBinding;

/** Resolves `<id>[@<version>]` to a protocol version. Throws a UsageError listing what exists. */
export async function resolveProtocol(spec: string): Promise<ProtocolVersion> {
  const binding = await resolveBinding(spec);
  // Inline validators (operation_where_index) are internal; public types are PascalCase.
  const validators = Object.fromEntries(
    Object.entries(binding.validators).filter(([name]) => /^[A-Z]/.test(name)),
  );
  return { ...binding, validators };
}

/** Resolves `<id>[@<version>]` to its whole binding (every validator, including the JSON-RPC params and results). */
export async function resolveBinding(spec: string): Promise<ProtocolBinding> {
  try {
    return await resolveRegistered(spec);
  } catch (error) {
    if (error instanceof RegistryLookupError) throw new UsageError(error.message);
    throw error;
  }
}

/** Every protocol and its versions as `--protocol` takes them, for help texts: `fixie, agentscope[@0.1|@1.1]`. */
export function protocolChoices(): string {
  return knownProtocols()
    .map((p) =>
      p.versions.length > 1
        ? `${p.protocol}[${p.versions.map((v) => `@${v.version}`).join('|')}]`
        : p.protocol,
    )
    .join(', ');
}
