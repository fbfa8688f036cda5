// A package's part of a run: what it knows of its versions as a whole, from its manifest and its translations.
import { emitTranslationList } from '../emit/translators/emit-translators.js';
import { emitEntry, emitLatest, emitModules, emitVersions } from '../emit/versions/emit-versions.js';
import { type LoadedManifest, MANIFEST_FILE } from '../load/load-manifests.js';
import type { LoadedTranslation } from '../load/load-translations.js';
import { banner, type OutputFile } from '../write/write-files.js';

/**
 * What a package knows of its versions as a whole: their translations, their list and traits, their code by version,
 * and (when the manifest declares an entry) every version's entry point.
 */
export function renderPackage(
  loaded: LoadedManifest,
  translations: readonly LoadedTranslation[],
): OutputFile[] {
  const dir = `${loaded.packageDir}/src/generated`;
  const source = `schemas/${loaded.manifest.id}/${MANIFEST_FILE}`;
  const mine = translations.filter((t) => t.protocol === loaded.manifest.id);
  const emitted: Array<[string, { toString(): string } | undefined]> = [
    ['translations.ts', mine.length === 0 ? undefined : emitTranslationList(mine)],
    ['versions.ts', emitVersions(loaded)],
    ['modules.ts', emitModules(loaded)],
    ['latest.ts', emitLatest(loaded)],
    ...Object.keys(loaded.manifest.versions).map((version): [string, ReturnType<typeof emitEntry>] => [
      `${version}/entry.ts`,
      emitEntry(loaded, version),
    ]),
  ];
  return emitted.flatMap(([name, code]) =>
    code === undefined
      ? []
      : [
          {
            path: `${dir}/${name}`,
            content: `${banner(source)}${String(code).trimEnd()}\n`,
          },
        ],
  );
}
