import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ExportFile, renderExport } from '@agentproto/codegen';
import { ROOT } from './spec-files.js';

/** The whole export (what `agentproto export` writes), rendered from schemas/ into a new temporary folder. */
export async function exportToTemp(prefix: string): Promise<{ dir: string; files: ExportFile[] }> {
  const files = await renderExport(ROOT);
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
  return { dir, files };
}
