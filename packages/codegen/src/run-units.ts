// The parts of a generator run: each protocol version's folder, each translation between two versions, each package's
// version-wide files, and the registry. generate.ts renders them (all, or the ones asked for); the cache (cache/) keys
// each on what it reads, so a run renders only the parts whose inputs changed and takes the others as they were.
import type { ProtocolModel } from './model/protocol-model.js';
import type { OutputFile } from './write/write-files.js';

/** Where a protocol version's generated code lives, relative to the repository root. */
export function outputDir(model: Pick<ProtocolModel, 'binding' | 'version'>): string {
  return `${model.binding.packageDir}/src/generated/${model.version}`;
}

/** The generated registry of every protocol and version, which the conformance kit and the CLI read. */
export const REGISTRY_DIR = 'packages/registry/src/generated';

/** One part of a run's output, made from its own inputs. */
export type Unit =
  | { kind: 'version'; protocol: string; version: string }
  /** `file`: the translation manifest, relative to the root (`schemas/<id>/translate-<from>.yaml`). */
  | { kind: 'translation'; protocol: string; file: string }
  | { kind: 'package'; protocol: string }
  | { kind: 'registry' };

/** A part's name, unique in a run: `version a2a@1.0`, `translation schemas/a2a/translate-0.3.yaml`, `package a2a`. */
export function unitId(unit: Unit): string {
  switch (unit.kind) {
    case 'version':
      return `version ${unit.protocol}@${unit.version}`;
    case 'translation':
      return `translation ${unit.file}`;
    case 'package':
      return `package ${unit.protocol}`;
    case 'registry':
      return 'registry';
  }
}

/** What a part made: the generated folders it owns and its files. */
export interface UnitOutput {
  dirs: string[];
  files: OutputFile[];
}

/** A run's output from its parts' (in `order`, by name): every file, and each owned folder once. */
export function joinOutputs(
  order: readonly string[],
  outputs: ReadonlyMap<string, UnitOutput>,
): { dirs: string[]; files: OutputFile[] } {
  const dirs = new Set<string>();
  const files: OutputFile[] = [];
  for (const id of order) {
    const output = outputs.get(id);
    if (!output) throw new Error(`no output for ${id}`);
    for (const d of output.dirs) dirs.add(d);
    files.push(...output.files);
  }
  return { dirs: [...dirs], files };
}
