// The shape check of a parsed body: nesting depth and well-formed Unicode, walked with its own stack, so a hostile
// body cannot overflow the call stack or break encoding later.
import { escapePointerToken } from '../text/pointer.js';
/** Why a parsed body cannot be kept and sent back: too deep, or a string that is not valid Unicode. */
export interface ShapeProblem {
  kind: 'too-deep' | 'lone-surrogate';
  /** JSON pointer to where the problem was found. */
  pointer: string;
}

/**
 * `String.prototype.isWellFormed` (ES2024, in every Node.js this project supports), reached without asking users'
 * compilers for the ES2024 library in our published declarations.
 */
const isWellFormed = (text: string): boolean =>
  // sound: the method exists on every string in Node.js 20 and later (the engines this package declares)
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Finds the first place where a parsed value nests deeper than `maxDepth` (the value itself is depth 1) or holds a
 * string or key with a lone UTF-16 surrogate. Either would break the answer that echoes it: `JSON.stringify`
 * overflows the stack on deep values, and a lone surrogate cannot be encoded in a header or as UTF-8. The walk uses
 * its own stack, so a hostile value cannot overflow the call stack here either.
 */
export function findShapeProblem(value: unknown, maxDepth: number): ShapeProblem | undefined {
  const stack: Array<{ value: unknown; depth: number; pointer: string }> = [{ value, depth: 1, pointer: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value: v, depth, pointer } = top;
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return { kind: 'lone-surrogate', pointer };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return { kind: 'too-deep', pointer };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], depth: depth + 1, pointer: `${pointer}/${i}` });
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (!isWellFormed(key)) return { kind: 'lone-surrogate', pointer: at };
      stack.push({ value: item, depth: depth + 1, pointer: at });
    }
  }
  return undefined;
}

/**
 * Whether JSON text certainly holds nothing `findShapeProblem` looks for: fewer brackets than the depth limit and no
 * `\u` escape (the only way JSON text decoded as UTF-8 can carry a lone surrogate). Most bodies pass this test, and
 * then the walk is skipped.
 */
export function jsonTextIsPlain(text: string, maxDepth: number): boolean {
  if (text.includes('\\u')) return false;
  // Each count stops once the two together could reach the limit; each is one linear scan.
  let brackets = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1))
      if (++brackets >= maxDepth) return false;
  }
  return true;
}
