// Which type of the protocol a document is checked as: --type, else the folder the file is in (the layout of
// examples/ and counterexamples/); a mistyped name gets the nearest known one.
import path from 'node:path';
import { UsageError } from '../../exit-codes.js';
import type { ProtocolVersion } from '../../protocols.js';

/** The validator of a type of the protocol, or a UsageError naming the nearest known type. */
export function typeValidator(protocol: ProtocolVersion, typeName: string) {
  const validate = protocol.validators[typeName];
  if (!validate) {
    const known = Object.keys(protocol.validators);
    const near = closest(typeName, known);
    throw new UsageError(
      `${protocol.protocol}@${protocol.version} has no type "${typeName}"` +
        `${near ? `; did you mean ${near}?` : ''} Known: ${known.join(', ')}`,
    );
  }
  return validate;
}

/** The known name nearest to a mistyped one (case aside; two edits, or a third of its letters, at most), if any. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Levenshtein distance, one row at a time. The row above is walked in order, so the cells each step needs are at hand
 * as numbers: the one above (`up`), its left neighbour (`diagonal`) and the cell just written (`left`).
 */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let last = b.length;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let left = i;
    let diagonal = i - 1;
    for (const [j, up] of previous.entries()) {
      if (j === 0) continue;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      left = Math.min(up + 1, left + 1, diagonal + cost);
      row.push(left);
      diagonal = up;
    }
    previous = row;
    last = left;
  }
  return last;
}

/** The type a file is by where it is: its folder's name when that is a type (else --type must say). */
export function typeOf(protocol: ProtocolVersion, file: string): string | undefined {
  const folder = file === '-' ? '' : path.basename(path.dirname(path.resolve(file)));
  return protocol.validators[folder] ? folder : undefined;
}

/** What to say when a document's type cannot be told. */
export function untypedMessage(file: string): string {
  return (
    `cannot tell the type of ${file === '-' ? 'standard input' : 'this file'}: pass --type <TypeName> ` +
    '(or keep the file in a folder named after its type)'
  );
}
