import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint, placeTarball, tarballName } from './vendor.js';

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

  it('placing a tarball > replaces a link at its name and leaves the file the link named untouched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-vendor-'));
    const outside = path.join(dir, 'outside.txt');
    writeFileSync(outside, 'precious');
    const vendor = path.join(dir, 'project', 'vendor');
    mkdirSync(vendor, { recursive: true });
    const file = tarballName('@agentproto/runtime', '0.1.0');
    symlinkSync(outside, path.join(vendor, file));
    const packed = path.join(dir, 'packed.tgz');
    writeFileSync(packed, 'tarball bytes');
    await placeTarball(packed, vendor, file);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(lstatSync(path.join(vendor, file)).isSymbolicLink()).toBe(false);
    expect(readFileSync(path.join(vendor, file), 'utf8')).toBe('tarball bytes');
    expect(readdirSync(vendor)).toEqual([file]);
  });
});
