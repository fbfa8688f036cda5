// Global set-up of the second test stage: packs every package once (`pnpm pack-packages`, as a release would) into a
// temporary folder that the installed-package tests install from, and removes it at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding one tarball per package. */
    tarballs: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-tarballs-'));
  execFileSync('pnpm', ['pack-packages', dir], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 900_000,
  });
  project.provide('tarballs', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
