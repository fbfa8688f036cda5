import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint, tarballName } from './vendor.js';

describe('new > vendor', () => {
  it('fingerprint > changes with a source file, not with what installs and builds write', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-fingerprint-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'package.json'), '{}');
    writeFileSync(path.join(dir, 'src/index.ts'), 'export const a = 1;');
    const before = fingerprint(dir);
    for (const built of ['dist', 'node_modules/x', '.tmp']) {
      mkdirSync(path.join(dir, built), { recursive: true });
      writeFileSync(path.join(dir, built, 'out.js'), 'built');
    }
    expect(fingerprint(dir)).toBe(before);
    writeFileSync(path.join(dir, 'src/index.ts'), 'export const a = 2;');
    utimesSync(path.join(dir, 'src/index.ts'), 1, 1);
    expect(fingerprint(dir)).not.toBe(before);
    const edited = fingerprint(dir);
    writeFileSync(path.join(dir, 'src/more.ts'), '');
    expect(fingerprint(dir)).not.toBe(edited);
  });

  it('tarball names > as npm and pnpm write them', () => {
    expect(tarballName('@agentproto/runtime', '0.1.0')).toBe('agentproto-runtime-0.1.0.tgz');
  });
});
