// Issue 36: a cast (`x as T`, `<T>x`) tells the compiler to stop checking, so hand-written code keeps only the casts
// a better type cannot replace, and each one says why it is sound: a `// sound: <why>` comment on its line or within
// the 3 lines above it. This walks every tracked TypeScript file but generated code (package source, scripts, tests
// and their support files), finds the casts with the compiler's own parser (`as const` is no cast: it narrows), and
// lists each one that has no such comment.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

/** How many lines above a cast its `// sound:` comment may sit. */
const REACH = 3;
const SOUND = /\/\/.*\bsound:|\/\*.*\bsound:|^\s*\*.*\bsound:/;

/** The lines (1-based) of the casts in `text` that no `sound:` comment explains. */
function unexplainedCasts(fileName: string, text: string): number[] {
  // No parent pointers and no JSDoc: the walk needs neither, and a parse without them is the faster.
  const source = ts.createSourceFile(
    fileName,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const lines = text.split('\n');
  const found: number[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const')
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      // The comment may sit above the expression or on any line down to the one with the cast's type.
      const last = source.getLineAndCharacterOfPosition(node.type.getStart(source)).line;
      if (!lines.slice(Math.max(0, first - REACH), last + 1).some((l) => SOUND.test(l)))
        found.push(first + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The hand-written TypeScript files git tracks: no generated code, declarations or installed packages. */
function handWritten(): string[] {
  return execFileSync('git', ['ls-files', '-z', '*.ts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(
      (f) =>
        f !== '' &&
        !f.endsWith('.d.ts') &&
        !f.includes('/generated/') &&
        !f.split('/').includes('node_modules') &&
        existsSync(path.join(ROOT, f)),
    );
}

describe('36 > every cast in hand-written code says why it is sound', () => {
  it.each<[string, string, number[]]>([
    ['a bare cast', 'const n = JSON.parse(text) as number;\n', [1]],
    [
      'a cast with its reason on its line',
      'const n = JSON.parse(text) as number; // sound: text is "1"\n',
      [],
    ],
    [
      'a reason 3 lines above',
      '// sound: text is "1"\n// (written just above)\n//\nconst n = JSON.parse(text) as number;\n',
      [],
    ],
    [
      'a reason 4 lines above is too far',
      '// sound: text is "1"\n\n\n\nconst n = JSON.parse(text) as number;\n',
      [5],
    ],
    ['a comment that gives no reason', '// the parsed number\nconst n = JSON.parse(text) as number;\n', [2]],
    ['the word in a string is no comment', "const n = JSON.parse('sound: 1') as number;\n", [1]],
    ['as const is no cast', "const kinds = ['a', 'b'] as const;\n", []],
    ['an angle-bracket cast', 'const n = <number>JSON.parse(text);\n', [1]],
    ['a double cast counts twice', 'const n = (x as unknown) as number;\n', [1, 1]],
    [
      'a cast over several lines, explained where its type starts',
      'const n = (\n  JSON.parse(text)\n) as { // sound: text is an object\n  a: number;\n};\n',
      [],
    ],
  ])('the checker > %s', (_, text, want) => {
    expect(unexplainedCasts('case.ts', text)).toEqual(want);
  });

  it('hand-written code > no cast without its reason', () => {
    const files = handWritten();
    expect(files.length).toBeGreaterThan(100);
    const unexplained: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      if (text.startsWith('// Generated')) continue;
      for (const line of unexplainedCasts(file, text)) unexplained.push(`${file}:${line}`);
    }
    expect(unexplained, 'casts without a `// sound: <why>` comment on their line or the 3 above').toEqual([]);
  });
});
