// A translation's part of a run: the codecs between two versions of a protocol. Both sides' type schemas are read
// without their prose (without-annotations.ts: a diff gives the prose no weight), so a run with a cache (piece-memo.ts)
// takes the codecs from it after an edit that touched only the prose of a type.
import type { PieceMemo } from '../cache/piece-memo.js';
import { DiagnosticsError } from '../diagnostics.js';
import type { DiffSide } from '../diff/diff-types.js';
import { sideFromVersion } from '../diff/read-side.js';
import { emitTranslators, translatorFile } from '../emit/translators/emit-translators.js';
import { withoutAnnotations } from '../emit/validators/without-annotations.js';
import type { LoadedTree, LoadedVersion } from '../load/load-protocols.js';
import type { LoadedTranslation } from '../load/load-translations.js';
import { translationShapes, validateTranslation } from '../validate/validate-translation.js';
import { banner, type OutputFile } from '../write/write-files.js';

/**
 * A translation between two versions: checked against both and against their diff, then emitted as codecs; through
 * `memo` when the run has a cache.
 */
export function renderTranslation(tree: LoadedTree, t: LoadedTranslation, memo?: PieceMemo): OutputFile {
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
  const sides = { from: proseless(from), to: proseless(to) };
  const make = () => {
    const problems = validateTranslation(t, sides.from, sides.to);
    if (problems.length > 0) throw new DiagnosticsError(problems);
    return `${banner(t.source.file)}${String(emitTranslators(t, translationShapes(sides))).trimEnd()}\n`;
  };
  // What `make` reads, as JSON: the manifest, and each side's label, types, surfaces and examples (the locators only
  // place a diagnostic, and a run with diagnostics keeps nothing).
  const input = () => ({
    protocol: t.protocol,
    manifest: { file: t.source.file, value: t.source.value },
    from: sideData(sides.from),
    to: sideData(sides.to),
  });
  return {
    path: `${from.packageDir}/src/generated/${translatorFile(t)}`,
    content: memo ? memo.recall('translation', input(), make) : make(),
  };
}

/** A version's side, its type schemas without their prose. */
function proseless(v: LoadedVersion): DiffSide {
  const side = sideFromVersion(v);
  for (const [name, doc] of side.types)
    side.types.set(name, { ...doc, value: withoutAnnotations(doc.value) });
  return side;
}

/** A side's data as JSON can say it (its maps as arrays of entries; no locators). */
function sideData(side: DiffSide) {
  return {
    label: side.label,
    types: [...side.types].map(([name, d]) => [name, d.file, d.id, d.at, d.value]),
    openapi: side.openapi && [side.openapi.file, side.openapi.value],
    openrpc: side.openrpc && [side.openrpc.file, side.openrpc.value],
    examples: [...side.examples],
  };
}
