// Emits a protocol package's translators (`src/generated/translate-<from>-<to>.ts`) from a translation manifest: the
// table as data, compiled once by @agentproto/runtime/translate, and a typed pair of functions per `from` type —
// `up.Message(value)` takes a `from` Message and gives the `to` type its rule names, `down.Message` the other way.
import type { LoadedTranslation } from '../../load/load-translations.js';
import { type Code, doc, ident, joinCode, literal, str, ts } from '../code.js';

/** The local name of the n-th translation's import (versions are not identifiers). */
const local = (prefix: string, index: number): Code => ident(`${prefix}${index}`);

/** The file a translation is emitted to, inside the package's `src/generated/`. */
export const translatorFile = ({ source }: LoadedTranslation): string =>
  `translate-${source.value.from}-${source.value.to}.ts`;

/** The module of one translation manifest. */
export function emitTranslators({ source }: LoadedTranslation): Code {
  const { unmatched: _unmatched, ...table } = source.value;
  const { from, to } = table;
  const names = Object.keys(table.types).sort();
  const pair = (name: string): [Code, Code] => {
    const target = table.types[name]?.to ?? name;
    const f = ts`From[${str(name)}]`;
    const t = ts`To[${str(target)}]`;
    return [
      ts`  ${str(name)}: (value: ${f}): ${t} => TRANSLATOR.codec(${str(name)}).up(value) as ${t},\n`,
      ts`  ${str(name)}: (value: ${t}): ${f} => TRANSLATOR.codec(${str(name)}).down(value) as ${f},\n`,
    ];
  };
  const pairs = names.map(pair);
  return ts`import { compileTranslation, type TranslationTable } from '@agentproto/runtime/translate';
import type { Schemas } from './versions.js';

type From = Schemas[${str(from)}];
type To = Schemas[${str(to)}];

${doc(`How ${from} maps to ${to} and back, as ${source.file} says (its \`unmatched\` list stays there).`)}export const TABLE: TranslationTable = ${literal(table, 2)};

${doc(`The compiled table: \`TRANSLATOR.codec(type)\` is the pair of functions of one ${from} type.`)}export const TRANSLATOR = compileTranslation(TABLE);

${doc(`Each ${from} type's values, as ${to} writes them.`)}export const up = {
${joinCode(
  pairs.map((p) => p[0]),
  '',
)}} as const;

${doc(`Each ${from} type's values, from ${to}'s.`)}export const down = {
${joinCode(
  pairs.map((p) => p[1]),
  '',
)}} as const;
`;
}

/** `src/generated/translations.ts`: every version a package serves through a translation, with its codecs. */
export function emitTranslationList(translations: readonly LoadedTranslation[]): Code {
  const imports = translations.map(
    (t, i) =>
      ts`import { TRANSLATOR as ${local('t', i)} } from ${str(`./${translatorFile(t).replace(/\.ts$/, '.js')}`)};\n`,
  );
  const entries = translations.map(
    (t, i) =>
      ts`  ${str(t.source.value.from)}: { to: ${str(t.source.value.to)}, translator: ${local('t', i)} },\n`,
  );
  return ts`${imports}
${doc('The versions this package serves through a translation: for each, the version its handlers speak and the codecs between them.')}export const TRANSLATIONS = {
${joinCode(entries, '')}} as const;
`;
}
