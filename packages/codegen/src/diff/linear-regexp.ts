// The regular expressions of schemas under diff run on a linear-time engine (issue 34): a schema from a pull request
// is user input, and `^(a+)+$` on a 79-character example kept V8's backtracking engine busy for minutes. RE2JS (a
// port of RE2) matches in time linear in the input whatever the pattern. A pattern it cannot run (a backreference, a
// lookahead: features that need backtracking) is not run at all: a value it would decide is undecided, and the
// differ says so instead of guessing or hanging.
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/** A pattern the linear engine cannot run: a message that meets it can be judged by neither side. */
export class UndecidedPattern extends Error {
  override name = 'UndecidedPattern';
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`the pattern ${JSON.stringify(pattern)} needs a backtracking engine (${reason}): not evaluated`);
  }
}

// ECMAScript flags as RE2JS flags; `u` (ajv's default) changes nothing RE2 does not already do.
const FLAGS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

const compiled = new Map<string, RegExpLike>();

// ECMAScript's `\s`: RE2's covers ASCII only.
const SPACE =
  '\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';

/**
 * Rewrites what ECMAScript spells differently from RE2, in one pass: `\uXXXX` and `\u{X…}` as `\x{…}`, `\s` and
 * (outside a class) `\S` as ECMAScript's classes, `[^]` as any character. Everything else is passed on as written.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      const hex4 = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2, i + 6));
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2, i + 10));
      if (next === 'u' && braced) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
      } else if (next === 'u' && hex4) {
        out += `\\x{${hex4[0]}}`;
        i += 5;
      } else if (next === 's') {
        out += inClass ? SPACE : `[${SPACE}]`;
        i += 1;
      } else if (next === 'S' && !inClass) {
        out += `[^${SPACE}]`;
        i += 1;
      } else {
        out += c + next;
        i += 1;
      }
    } else if (!inClass && c === '[' && pattern.startsWith('[^]', i)) {
      out += '[\\s\\S]';
      i += 2;
    } else {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']') inClass = false;
      out += c;
    }
  }
  return out;
}

/** Compiles a schema's pattern for ajv: linear-time matching, or a tester that throws UndecidedPattern. */
function compile(pattern: string, flags: string): RegExpLike {
  // ajv keeps one compiled pattern per `toString()`: each tester names its own pattern.
  const key = `/${pattern}/${flags}`;
  const known = compiled.get(key);
  if (known) return known;
  let tester: RegExpLike & { toString(): string };
  try {
    let bits = 0;
    for (const f of flags) bits |= FLAGS[f] ?? 0;
    const re = RE2JS.compile(toRe2Syntax(pattern), bits);
    tester = { test: (s) => re.test(s), toString: () => key };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    tester = {
      test: () => {
        throw new UndecidedPattern(pattern, reason);
      },
      toString: () => key,
    };
  }
  compiled.set(key, tester);
  return tester;
}

/** ajv's `code.regExp` option: every `pattern` and `patternProperties` of the schemas matched in linear time. */
export const linearRegExp: RegExpEngine = Object.assign(compile, {
  // Names the engine in standalone code; the differ never emits any.
  code: 'linearRegExp',
});
