// The generated types agree with the examples: every example `satisfies` its type, and every counterexample whose
// fault is a wrong JSON type is a compile error (`@ts-expect-error`, which itself fails when nothing errors).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { protocolVersions, ROOT, schemaFile, specFiles } from '../support/spec-files.js';
import { prop } from '../support/typed.js';

// Binary form fields are Blob in TypeScript and strings in JSON documents; their examples cannot be literals.
const hasBinaryField = (dir: string, typeName: string) =>
  readFileSync(schemaFile(dir, typeName), 'utf8').includes('contentMediaType');

function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split('/').slice(1))
    node = Array.isArray(node) ? node[Number(token)] : prop(node, token);
  return node;
}

/** The check file of one version: every example `satisfies` its type; wrong-type counterexamples must not compile. */
function checkSource(v: ReturnType<typeof protocolVersions>[number]): { source: string; negatives: number } {
  // sound: counterexamples/expected-errors.json maps each counterexample to the keyword and pointer of its error.
  const expected = JSON.parse(
    readFileSync(path.join(v.dir, 'counterexamples/expected-errors.json'), 'utf8'),
  ) as Record<string, { keyword: string; pointer: string }>;
  const index = path.join(ROOT, v.packageDir, 'src/generated', v.version, 'index.js');
  let source = `import type * as T from ${JSON.stringify(index)};\n`;
  let n = 0;
  for (const e of specFiles(v, 'examples')) {
    if (hasBinaryField(v.dir, e.typeName)) continue;
    source += `// ${e.key}\nexport const e${n++} = ${JSON.stringify(e.value)} satisfies T.${e.typeName};\n`;
  }
  let negatives = 0;
  for (const c of specFiles(v, 'counterexamples')) {
    const want = expected[c.key];
    if (want?.keyword !== 'type' || hasBinaryField(v.dir, c.typeName)) continue;
    // TypeScript has no integer type: a fraction where an integer belongs is a number all the same.
    if (typeof valueAt(c.value, want.pointer) === 'number') continue;
    negatives++;
    source += `// ${c.key}\n// @ts-expect-error a wrong JSON type must not compile\nexport const c${n++} = ${JSON.stringify(c.value)} satisfies T.${c.typeName};\n`;
  }
  return { source, negatives };
}

const versions = protocolVersions().map((v) => ({
  ...v,
  file: path.join(ROOT, 'test/types', `.${v.protocol}-${v.version}.check.ts`),
  ...checkSource(v),
}));

/** One TypeScript program over every version's check file (in memory): the libraries are checked once, not per version. */
let program: ts.Program | undefined;
function checked(): ts.Program {
  if (program) return program;
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const options = { ...config?.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const sources = new Map(versions.map((v) => [v.file, v.source]));
  const read = host.readFile.bind(host);
  host.readFile = (f) => sources.get(path.resolve(f)) ?? read(f);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => sources.has(path.resolve(f)) || exists(f);
  program = ts.createProgram([...sources.keys()], options, host);
  return program;
}

for (const v of versions) {
  describe(`${v.protocol}@${v.version}`, () => {
    it('types > examples satisfy their types; wrong-type counterexamples do not compile', () => {
      expect(v.negatives).toBeGreaterThan(0);
      const p = checked();
      const diagnostics = ts.getPreEmitDiagnostics(p, p.getSourceFile(v.file)).map((d) => {
        const where =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        const line = v.source.split('\n')[where - 2] ?? '';
        return `${line} → ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(diagnostics).toEqual([]);
    });
  });
}
