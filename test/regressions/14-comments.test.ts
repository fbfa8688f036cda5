// Issue 14: hand-written source says what each file is for, and every export says what it is. Each file opens with a
// comment (its module header: purpose, and the spec section it implements where there is one), and every exported
// declaration has a TSDoc comment (or a line comment) right above it. Re-exports carry their source's documentation.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

/** Every hand-written source file of the packages: src/ without tests or generated code. */
function sources(): string[] {
  return readdirSync(path.join(ROOT, 'packages')).flatMap((pkg) => {
    const src = path.join(ROOT, 'packages', pkg, 'src');
    return readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.split(path.sep).includes('generated'))
      .map((f) => path.relative(ROOT, path.join(src, f)));
  });
}

/** A declaration export (not a re-export), which must be documented. */
const DECLARATION =
  /^export (default )?(async )?(function\*?|const|let|class|abstract class|interface|type|enum) [A-Za-z_$]/;

/** What a source file lacks: its header, and the documentation of each undocumented export (by line). */
function undocumented(text: string): string[] {
  const lines = text.split('\n');
  const missing: string[] = [];
  const first = lines.find((l) => l.trim() !== '') ?? '';
  if (!first.startsWith('//') && !first.startsWith('/*')) missing.push('no module header');
  lines.forEach((line, i) => {
    if (!DECLARATION.test(line)) return;
    const above = (lines[i - 1] ?? '').trim();
    if (!above.endsWith('*/') && !above.startsWith('//')) missing.push(`line ${i + 1}: ${line.slice(0, 60)}`);
  });
  return missing;
}

describe('14 > comments', () => {
  it('sources > there are files to check', () => {
    expect(sources().length).toBeGreaterThan(100);
  });

  it('sources > every file has a module header and every export its documentation', () => {
    const found = sources().flatMap((file) =>
      undocumented(readFileSync(path.join(ROOT, file), 'utf8')).map((m) => `${file}: ${m}`),
    );
    expect(found).toEqual([]);
  });

  it('check > finds a missing header and an undocumented export (it can fail)', () => {
    expect(
      undocumented("import x from 'y';\nexport const a = 1;\n/** b */\nexport function b() {}\n"),
    ).toEqual(['no module header', 'line 2: export const a = 1;']);
    expect(
      undocumented("// header\nexport { a } from './a.js';\nexport type { B } from './b.js';\n"),
    ).toEqual([]);
  });
});
