// `@agentproto/registry`: which protocols and versions exist, and where each one's code lives. The table is generated
// from the manifests (schemas/<id>/protocol.yaml), so the conformance kit and the agentproto CLI, which both resolve
// `--protocol <id>[@<version>]` here, know exactly the protocols the manifests list. A version's binding (validators,
// stream check, document rules; its suite and template load on demand) comes from the protocol's package, an optional
// peer of this one: a user of one protocol installs that package and never installs or loads the others.
import type { ProtocolBinding, Suite } from '@agentproto/runtime/contract';
import { PROTOCOLS, type RegistryEntry, type RegistryVersion } from './generated/registry.js';

export { PROTOCOLS, type RegistryEntry, type RegistryVersion };

/**
 * `<id>[@<version>]` names no protocol or version the registry lists, or its package is not installed, or it has no
 * suite: what a user typed or installed is wrong (the CLI's usage error, exit code 2). The message lists what exists
 * or names the package to install.
 */
export class RegistryLookupError extends Error {
  override name = 'RegistryLookupError';
}

/** Finds `<id>[@<version>]`, or throws a RegistryLookupError listing what exists. */
function lookup(spec: string): { id: string; entry: RegistryEntry; version: string; found: RegistryVersion } {
  const [id = '', requested] = spec.split('@');
  const entry = PROTOCOLS[id];
  if (!entry)
    throw new RegistryLookupError(`unknown protocol "${id}"; known: ${Object.keys(PROTOCOLS).join(', ')}`);
  const version = requested ?? entry.latest;
  const found = entry.versions[version];
  if (!found)
    throw new RegistryLookupError(
      `protocol ${id} has no version "${version}"; known: ${Object.keys(entry.versions).join(', ')}`,
    );
  return { id, entry, version, found };
}

/** Resolves `<id>[@<version>]` to the protocol version's binding, naming the package to install when it is missing. */
export async function resolveBinding(spec: string): Promise<ProtocolBinding> {
  const { id, entry, found } = lookup(spec);
  try {
    return (await found.binding()).binding;
  } catch (error) {
    // sound: a failed import rejects with Node's error, whose code names a missing module; other throws have none
    const code = (error as NodeJS.ErrnoException).code;
    if (
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String(error).includes(entry.package)
    )
      throw new RegistryLookupError(
        `checking ${id} needs ${entry.package}, which is not installed: npm install --save-dev ${entry.package}`,
      );
    throw error;
  }
}

/** Resolves `<id>[@<version>]` to the protocol version's binding and its conformance suite. */
export async function resolveSuite(spec: string): Promise<{ binding: ProtocolBinding; suite: Suite }> {
  const binding = await resolveBinding(spec);
  if (!binding.suite)
    throw new RegistryLookupError(`${binding.protocol}@${binding.version} has no conformance suite yet`);
  return { binding, suite: await binding.suite() };
}

/** One protocol the registry lists: its id, title, package, latest version, and each version with its title. */
export interface KnownProtocol {
  protocol: string;
  title: string;
  package: string;
  latest: string;
  versions: Array<{ version: string; title: string }>;
}

/** Every protocol the manifests list, in id order: what help texts and `agentproto new` show. */
export function knownProtocols(): KnownProtocol[] {
  return Object.entries(PROTOCOLS).map(([protocol, e]) => ({
    protocol,
    title: e.title,
    package: e.package,
    latest: e.latest,
    versions: Object.entries(e.versions).map(([version, v]) => ({ version, title: v.title })),
  }));
}
