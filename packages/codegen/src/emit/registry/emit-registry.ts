// Emits the registry (`@agentproto/registry`'s table): every protocol and version the manifests list, with a loader for
// each version's binding. The conformance kit and the CLI (validate, conformance, new, serve, docs, export, diff)
// resolve `--protocol <id>[@<version>]` through it, so no hand-written list of protocols exists anywhere.
import type { LoadedManifest } from '../../load/load-manifests.js';
import { type Code, doc, joinCode, str, ts } from '../code.js';

/** The registry module, from every manifest (sorted by protocol id; versions in the manifest's order). */
export function emitRegistry(manifests: readonly LoadedManifest[]): Code {
  const entries = manifests.map(({ manifest }) => {
    const versions = Object.entries(manifest.versions).map(
      ([version, entry]) =>
        ts`      ${str(version)}: {\n        title: ${str(entry.title)},\n        binding: () => import(${str(`${manifest.package}/${version}/binding`)}),\n      },\n`,
    );
    return ts`  ${str(manifest.id)}: {
    title: ${str(manifest.title)},
    package: ${str(manifest.package)},
    latest: ${str(manifest.latest)},
    versions: {
${joinCode(versions, '')}    },
  },
`;
  });
  return ts`import type { ProtocolBinding } from '@agentproto/runtime/contract';

${doc('One version of a protocol: its title, and a loader for its binding (from the protocol package, an optional peer).')}export interface RegistryVersion {
  title: string;
  binding: () => Promise<{ binding: ProtocolBinding }>;
}

${doc('One protocol: its title, the package holding its code, the version `--protocol <id>` means, and its versions.')}export interface RegistryEntry {
  title: string;
  package: string;
  latest: string;
  versions: Readonly<Record<string, RegistryVersion>>;
}

${doc('Every protocol the manifests under schemas/ list, by id.')}export const PROTOCOLS: Readonly<Record<string, RegistryEntry>> = {
${joinCode(entries, '')}};
`;
}
