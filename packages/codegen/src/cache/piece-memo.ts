// Pieces of a part kept in the generator's cache: a piece's text under the hash of the generator and of exactly the
// data it is made from. A part is rendered again when any of its input files changed (run-plan.ts); a piece inside it
// is made again only when its own input did. The message validators are such a piece: made from the schemas without
// their prose (emit-validators.ts), they are the same after an edit to a description, and the slowest of a version's
// emitters is skipped. Like the part records (unit-records.ts), pieces live in node_modules/.cache, are written whole
// then renamed, and the oldest beyond PIECES_KEPT are dropped; `--no-cache` neither reads nor writes them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUN_CACHE_DIR } from './unit-records.js';

/** The folder of pieces, under RUN_CACHE_DIR. */
export const PIECES_DIR = 'pieces';

/** How many pieces the cache keeps: one per version (about a dozen in a tree), for several trees. */
export const PIECES_KEPT = 64;

/** Makes a piece's text, or takes it from the cache when the same generator made it from the same input. */
export interface PieceMemo {
  /**
   * The text `make` returns for `input`, from the cache when it is there. `input` must be everything `make` reads (its
   * JSON is the key) and `make` must be pure. A piece whose `make` throws is not kept.
   */
  recall(name: string, input: unknown, make: () => string): string;
  /** How many pieces were made rather than taken from the cache. */
  made(): number;
}

/** A piece's record file: its key (read back to make sure) and its text. */
interface PieceRecord {
  key: string;
  text: string;
}

/**
 * The memo of a run over `root` by the generator whose hash is `generator` (run-plan.ts), its records in `folder` under
 * RUN_CACHE_DIR (PIECES_DIR unless said).
 */
export function pieceMemo(root: string, generator: string, folder: string = PIECES_DIR): PieceMemo {
  const dir = path.join(root, RUN_CACHE_DIR, folder);
  let made = 0;
  return {
    recall(name, input, make) {
      const key = createHash('sha256')
        .update(`${generator}\0${name}\0`)
        .update(JSON.stringify(input))
        .digest('hex');
      const file = path.join(dir, `${key}.json`);
      const kept = readRecord(file, key);
      if (kept !== undefined) {
        // Used now: the last the folder drops. A record removed meanwhile by another run is no failure.
        const now = new Date();
        try {
          utimesSync(file, now, now);
        } catch {
          // Gone or read-only: the text read is still right.
        }
        return kept;
      }
      const text = make();
      made++;
      // A cache that cannot be written (a read-only tree) costs only the next run's time.
      try {
        mkdirSync(dir, { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify({ key, text } satisfies PieceRecord));
        renameSync(temporary, file);
      } catch {
        // Not kept: the next run makes it again.
      }
      return text;
    },
    made: () => made,
  };
}

/** A record's text, when the file holds the record of `key`. */
function readRecord(file: string, key: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  return typeof record === 'object' &&
    record !== null &&
    'key' in record &&
    record.key === key &&
    'text' in record &&
    typeof record.text === 'string'
    ? record.text
    : undefined;
}
