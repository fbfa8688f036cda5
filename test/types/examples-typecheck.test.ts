// The generated types agree with the examples: every example `satisfies` its type, and every counterexample whose
// fault is a wrong JSON type is a compile error (`@ts-expect-error`, which itself fails when nothing errors).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { protocolVersions, ROOT, schemaFile, specFiles } from '../support/spec-files.js';

// Binary form fields are Blob in TypeScript and strings in JSON documents; their examples cannot be literals.
const hasBinaryField = (dir: string, typeName: string) =>
  readFileSync(schemaFile(dir, typeName), 'utf8').includes('contentMediaType');

function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split('/').slice(1))
    node = (node as Record<string, unknown> | undefined)?.[token];
  return node;
}

for (const v of protocolVersions()) {
  describe(`${v.protocol}@${v.version}`, () => {
    it('types > examples satisfy their types; wrong-type counterexamples do not compile', () => {
      const expected = JSON.parse(
        readFileSync(path.join(v.dir, 'counterexamples/expected-errors.json'), 'utf8'),
      ) as Record<string, { keyword: string; pointer: string }>;
      const index = path.join(ROOT, 'packages', v.protocol, 'src/generated', v.version, 'index.js');
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
      expect(negatives).toBeGreaterThan(0);

      const file = path.join(ROOT, 'test/types', `.${v.protocol}-${v.version}.check.ts`);
      const config = ts.getParsedCommandLineOfConfigFile(
        path.join(ROOT, 'tsconfig.json'),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: () => {},
        },
      );
      const options = { ...config?.options, noEmit: true };
      const host = ts.createCompilerHost(options);
      const read = host.readFile.bind(host);
      host.readFile = (f) => (path.resolve(f) === file ? source : read(f));
      const exists = host.fileExists.bind(host);
      host.fileExists = (f) => path.resolve(f) === file || exists(f);
      const program = ts.createProgram([file], options, host);
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
        const where =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
        const line = source.split('\n')[where - 2] ?? '';
        return `${line} → ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(diagnostics).toEqual([]);
    });
  });
}
