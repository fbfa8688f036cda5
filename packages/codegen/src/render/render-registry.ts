// The registry's part of a run: every protocol and version, from the manifests, for the conformance kit and the CLI.
import { emitRegistry } from '../emit/registry/emit-registry.js';
import { type LoadedManifest, MANIFEST_FILE } from '../load/load-manifests.js';
import { REGISTRY_DIR, type UnitOutput } from '../run-units.js';
import { banner } from '../write/write-files.js';

/** The registry's folder (which also holds the stamp) and its one file. */
export function renderRegistry(manifests: readonly LoadedManifest[]): UnitOutput {
  return {
    dirs: [REGISTRY_DIR],
    files: [
      {
        path: `${REGISTRY_DIR}/registry.ts`,
        content: `${banner(`schemas/*/${MANIFEST_FILE}`)}${String(emitRegistry(manifests)).trimEnd()}\n`,
      },
    ],
  };
}
