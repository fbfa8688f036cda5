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

/** Reads and parses a JSON or YAML file; a syntax error becomes a diagnostic and the result is undefined. */
export async function readSource(
  root: string,
  file: string,
  kind: 'json' | 'yaml',
  diagnostics: Diagnostic[],
): Promise<(SourceFile & { text: string }) | undefined> {
  const rel = toPosix(path.relative(root, file));
  // Read in one call: a version is hundreds of small files, and a promise per read costs more than the read.
  const text = readFileSync(file, 'utf8');
  try {
    const parsed = kind === 'json' ? parseJsonWithLocator(text) : parseYamlWithLocator(text);
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

/** Turns a platform path into the forward-slash form used in diagnostics and banners. */
export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
