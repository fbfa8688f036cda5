// Emits a protocol package's translators (`src/generated/translate-<from>-<to>.ts`) from a translation manifest: the
// table as data, its codecs as straight-line functions (codecs/: what @agentproto/runtime/translate's
// `compileTranslation` does with the table, written out rule by rule), and a typed pair of functions per `from` type —
// `up.Message(value)` takes a `from` Message and gives the `to` type its rule names, `down.Message` the other way.
import type { LoadedTranslation } from '../../load/load-translations.js';
import { type Code, doc, ident, joinCode, literal, str, ts } from '../code.js';
import { emitCodecs, type Shapes } from './codecs/index.js';

/** The local name of the n-th translation's import (versions are not identifiers). */
const local = (prefix: string, index: number): Code => ident(`${prefix}${index}`);

/** The file a translation is emitted to, inside the package's `src/generated/`. */
export const translatorFile = ({ source }: LoadedTranslation): string =>
  `translate-${source.value.from}-${source.value.to}.ts`;

/** The module of one translation manifest; with the shapes of both versions' types, its codecs have fast paths. */
export function emitTranslators({ source }: LoadedTranslation, shapes?: Shapes): Code {
  const { unmatched: _unmatched, ...table } = source.value;
  const { from, to } = table;
  const names = Object.keys(table.types).sort();
  const codecs = emitCodecs(table, shapes);
  const pair = (name: string): [Code, Code] => {
    const target = table.types[name]?.to ?? name;
    const f = ts`From[${str(name)}]`;
    const t = ts`To[${str(target)}]`;
    const fns = codecs.functions.get(name);
    if (!fns) throw new Error(`no codec for ${name}`);
    return [
      ts`  ${str(name)}: typed<${f}, ${t}>(${fns.up}),\n`,
      ts`  ${str(name)}: typed<${t}, ${f}>(${fns.down}),\n`,
    ];
  };
  const pairs = names.map(pair);
  const templates = Object.values(table.types).some((t) =>
    [t.fields ?? {}, ...Object.values(t.cases ?? {}).map((c) => c.fields ?? {})].some((fields) =>
      Object.values(fields).some((f) => f.template !== undefined),
    ),
  );
  const imports = templates
    ? ts`import { type Codec, compilePathTemplate, type TranslationTable, type Translator } from '@agentproto/runtime/translate';`
    : ts`import type { Codec, TranslationTable, Translator } from '@agentproto/runtime/translate';`;
  return ts`${imports}
import type { Schemas } from './versions.js';

type From = Schemas[${str(from)}];
type To = Schemas[${str(to)}];

${doc(`How ${from} maps to ${to} and back, as ${source.file} says (its \`unmatched\` list stays there).`)}export const TABLE: TranslationTable = ${literal(table, 2)};

${codecs.code}
${doc(`The table and its codecs: \`TRANSLATOR.codec(type)\` is the pair of functions of one ${from} type.`)}export const TRANSLATOR: Translator = {
  table: TABLE,
  codec(name: string): Codec {
    const codec = Object.hasOwn(CODECS, name) ? CODECS[name] : undefined;
    if (!codec) throw new Error(${str(`translation ${from}→${to}: no rule for type `)} + name);
    return codec;
  },
};

// sound: each function is the codec of the type it is named for, generated from that type's rule: it makes the
// \`to\` type the rule names from a valid \`from\` value (up), or the \`from\` type from a valid \`to\` value (down).
const typed = <A, B>(f: (value: unknown) => unknown): ((value: A) => B) => f as (value: A) => B;

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
