import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderExport } from '@agentproto/codegen';
import { ExitCode } from '../exit-codes.js';
import { findRoot } from './generate.js';
import type { Output } from './validate.js';

/** Options of `agentproto export`. */
export interface ExportOptions {
  protocol?: string[];
  root?: string;
}

/**
 * `agentproto export <outdir> [--protocol <id>...]`: writes the publishable schema set (per-type files, OpenAPI
 * documents, 2020-12 and draft-07 bundles, catalog.json, examples and counterexamples) for other languages.
 */
export async function exportCommand(outdir: string, options: ExportOptions, io: Output): Promise<number> {
  const root = options.root ? path.resolve(options.root) : findRoot(process.cwd());
  const files = await renderExport(root, options.protocol);
  for (const f of files) {
    const target = path.join(outdir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  io.out(`wrote ${files.length} files to ${outdir}`);
  return ExitCode.ok;
}
