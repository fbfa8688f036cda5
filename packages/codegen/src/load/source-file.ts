// A file the load stage read: its text, its parsed value, and a way to find the line of a JSON pointer in it, so every
// later stage can report `file:line: pointer: message` without reading anything again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Locator, parseJsonWithLocator, parseYamlWithLocator } from '@agentproto/runtime/locate';
import type { Diagnostic } from '../diagnostics.js';

/** A source file read from disk, parsed, with a way to find lines for pointers. */
export interface SourceFile<T = unknown> {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  value: T;
  locate: Locator;
}

/**
 * Whether a source file's value passed `check` (a schema's compiled validator, say): narrows the file itself, so it
 * can be kept as a `SourceFile<T>`.
 */
export function holds<T>(source: SourceFile, check: (value: unknown) => value is T): source is SourceFile<T> {
  return check(source.value);
}

/** Where a diagnostic about a pointer of a source file points: file, pointer and line. */
export function at(source: SourceFile, pointer: string): { file: string; pointer: string; line?: number } {
  const line = source.locate(pointer);
  return { file: source.file, pointer, ...(line === undefined ? {} : { line }) };
}

/**
 * How the load stage parses YAML text: a value and its locator, or an Error naming line and column. The runtime's
 * locating parser, or the generator's cache of values in front of it (cache/yaml-values.ts).
 */
export type YamlParser = (text: string) => { value: unknown; locate: Locator };

/**
 * Reads and parses a JSON or YAML file (YAML with `parseYaml`); a syntax error becomes a diagnostic and the result is
 * undefined.
 */
export async function readSource(
  root: string,
  file: string,
  kind: 'json' | 'yaml',
  diagnostics: Diagnostic[],
  parseYaml: YamlParser = parseYamlWithLocator,
): Promise<(SourceFile & { text: string }) | undefined> {
  const rel = toPosix(path.relative(root, file));
  // Read in one call: a version is hundreds of small files, and a promise per read costs more than the read.
  const text = readFileSync(file, 'utf8');
  try {
    const parsed = kind === 'json' ? parseJsonLazily(text) : parseYaml(text);
    return { file: rel, text, ...parsed };
  } catch (error) {
    diagnostics.push({
      file: rel,
      pointer: '',
      message: `not valid ${kind.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`,
    });
    return undefined;
  }
}

/**
 * Nesting past which a JSON file is parsed by the locating parser at once: it recurses, and says a document too deep
 * for its stack is (a diagnostic, not a crash further on).
 */
const LAZY_DEPTH = 256;

/**
 * A JSON file's value and locator, the locator made only when first asked: most files are never pointed into, and
 * JSON.parse is many times faster than the locating parser (both give the same values: own properties, the last of a
 * repeated key). A text JSON.parse refuses, or nested past LAZY_DEPTH, goes to the locating parser, for its line and
 * column or its depth error.
 */
export function parseJsonLazily(text: string): { value: unknown; locate: Locator } {
  if (nesting(text) > LAZY_DEPTH) return parseJsonWithLocator(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseJsonWithLocator(text);
  }
  let locator: Locator | undefined;
  const locate: Locator = (pointer) => {
    locator ??= parseJsonWithLocator(text).locate;
    return locator(pointer);
  };
  return { value, locate };
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted). */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** Turns a platform path into the forward-slash form used in diagnostics and banners. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
