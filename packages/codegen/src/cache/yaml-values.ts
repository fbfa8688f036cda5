// The values of YAML files kept in the generator's cache. The load stage parses every manifest, OpenAPI document,
// requirements file and translation manifest of the protocols a run renders, and the YAML parser, which keeps every
// node's place, is the slowest part of loading: an edit to one schema file re-read some 100 KB of unchanged YAML at
// about 4 ms a kilobyte. A value is kept as JSON under the hash of the generator and of the file's text, so it is
// the parser's own for that text; the locator, needed only when a diagnostic or a change site points into the file,
// is made by the parser when first asked. A value JSON cannot carry exactly (`.nan`, `.inf`) is parsed each time.
import { isDeepStrictEqual } from 'node:util';
import { type Locator, parseYamlWithLocator } from '@agentproto/runtime/locate';
import type { YamlParser } from '../load/source-file.js';
import type { PieceMemo } from './piece-memo.js';

/** The folder of kept YAML values, under the run cache (RUN_CACHE_DIR). */
export const YAML_DIR = 'yaml';

/** How many YAML values the cache keeps: a tree has about thirty YAML files. */
export const YAML_KEPT = 128;

/** What is kept for a text whose value JSON does not carry exactly: the text is parsed every time. */
const NOT_KEPT = '';

/** A YAML parser that takes each text's value from `memo` when it is there, and keeps it when it was not. */
export function cachedYamlParser(memo: PieceMemo): YamlParser {
  return (text) => {
    let parsed: { value: unknown; locate: Locator } | undefined;
    // A text the parser refuses throws here, as the parser throws, and nothing is kept.
    const json = memo.recall('yaml value', text, () => {
      parsed = parseYamlWithLocator(text);
      const kept = JSON.stringify(parsed.value);
      return kept !== undefined && isDeepStrictEqual(JSON.parse(kept), parsed.value) ? kept : NOT_KEPT;
    });
    if (parsed) return parsed;
    if (json === NOT_KEPT) return parseYamlWithLocator(text);
    let locator: Locator | undefined;
    return {
      value: JSON.parse(json),
      locate: (pointer) => {
        locator ??= parseYamlWithLocator(text).locate;
        return locator(pointer);
      },
    };
  };
}
