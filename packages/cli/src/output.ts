// Where a command writes: its lines, its errors, standard input, progress on a terminal, and colours. Every command
// takes one, so the CLI and the tests (which collect the lines) drive the commands the same way.
import type { Paint } from './colors.js';

/** Where the command writes. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Standard input, chunk by chunk, for the `-` input. */
  stdin: () => AsyncIterable<string | Uint8Array>;
  /** Rewrites a progress line in place; only given for a terminal (not in CI logs). */
  progress?: (line: string) => void;
  /** Colours for text written by `out` (plain unless it is a terminal with colours; see colors.ts). */
  paint?: Paint;
}
