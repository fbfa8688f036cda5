import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import setup from './scratch-tmpdir.js';

describe('the test run > scratch folder', () => {
  it('is the temporary folder of this worker (the global set-up is wired into the config)', () => {
    expect(path.basename(tmpdir())).toMatch(/^agentproto-test-/);
  });

  it('is removed with what it holds at the end, and the outer TMPDIR comes back', async () => {
    const outer = process.env.TMPDIR;
    const teardown = setup();
    const inner = tmpdir();
    try {
      expect(inner).not.toBe(outer);
      expect(path.dirname(inner)).toBe(outer);
      writeFileSync(path.join(inner, 'left-behind.txt'), 'a test that did not clean up');
    } finally {
      await teardown();
    }
    expect(existsSync(inner)).toBe(false);
    expect(process.env.TMPDIR).toBe(outer);
  });
});
