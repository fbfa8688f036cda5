// The exported schemas for TypeScript users who take only the schemas: each protocol version's `types.d.ts`, made by
// json-schema-to-typescript from the schema files, compiles under strict settings, and examples satisfy it while a
// value missing a required field does not.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExportFile, renderExport } from '@agentproto/codegen';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

let files: ExportFile[] = [];
let dir = '';

beforeAll(async () => {
  files = await renderExport(ROOT);
  dir = mkdtempSync(path.join(tmpdir(), 'agentproto-declarations-'));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
});

describe('export > TypeScript declarations', () => {
  it('types > every version has a types.d.ts; all compile; examples satisfy them, a wrong value does not', () => {
    const declarations = files.filter((f) => f.path.endsWith('/types.d.ts')).map((f) => f.path);
    const versions = new Set(
      files.filter((f) => f.path.endsWith('/bundle.schema.json')).map((f) => path.dirname(f.path)),
    );
    expect(declarations.map((d) => path.dirname(d)).sort()).toEqual([...versions].sort());
    // Each example of every version, assigned to the type its folder names.
    const checks = files
      .filter((f) => /\/examples\/[A-Za-z0-9]+\/[^/]+\.json$/.test(f.path))
      .map((f, i) => {
        const parts = f.path.split('/');
        const type = parts.at(-2);
        const version = parts.slice(0, -3).join('/');
        return `import type { ${type} as T${i} } from './${version}/types.js';\nexport const x${i}: T${i} = ${f.content.trim()};\n`;
      });
    const wrong = `import type { Task as W } from './a2a/1.0/types.js';\n// @ts-expect-error a task without its status\nexport const w: W = { id: 't' };\n`;
    writeFileSync(path.join(dir, 'check.ts'), [...checks, wrong].join('\n'));
    const program = ts.createProgram(
      [...declarations.map((d) => path.join(dir, d)), path.join(dir, 'check.ts')],
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
      },
    );
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? path.relative(dir, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(problems).toEqual([]);
    expect(checks.length).toBeGreaterThan(100);
  });
});
