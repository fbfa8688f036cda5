// A translation's part of a run: the codecs between two versions of a protocol.
import { DiagnosticsError } from '../diagnostics.js';
import { sideFromVersion } from '../diff/read-side.js';
import { emitTranslators, translatorFile } from '../emit/translators/emit-translators.js';
import type { LoadedTree } from '../load/load-protocols.js';
import type { LoadedTranslation } from '../load/load-translations.js';
import { translationShapes, validateTranslation } from '../validate/validate-translation.js';
import { banner, type OutputFile } from '../write/write-files.js';

/** A translation between two versions: checked against both and against their diff, then emitted as codecs. */
export function renderTranslation(tree: LoadedTree, t: LoadedTranslation): OutputFile {
  const version = (v: string) => tree.versions.find((x) => x.protocol === t.protocol && x.version === v);
  const from = version(t.source.value.from);
  const to = version(t.source.value.to);
  if (!from || !to)
    throw new DiagnosticsError([
      {
        file: t.source.file,
        pointer: from ? '/to' : '/from',
        message: `${t.protocol} has no version "${from ? t.source.value.to : t.source.value.from}"`,
      },
    ]);
  const sides = { from: sideFromVersion(from), to: sideFromVersion(to) };
  const problems = validateTranslation(t, sides.from, sides.to);
  if (problems.length > 0) throw new DiagnosticsError(problems);
  return {
    path: `${from.packageDir}/src/generated/${translatorFile(t)}`,
    content: `${banner(t.source.file)}${String(emitTranslators(t, translationShapes(sides))).trimEnd()}\n`,
  };
}
