// Global set-up of both test stages: one scratch folder per run, made the temporary folder of every test worker and
// every process they start (TMPDIR, which os.tmpdir() reads), and removed with everything in it when the run ends.
// Tests still clean up what they make, but one that does not, or that is cut short, no longer leaves its folders in
// the machine's /tmp: a full `pnpm test` left about 500 MB there per run.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => Promise<void> {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-test-'));
  process.env.TMPDIR = dir;
  // Removed without blocking: a synchronous removal of hundreds of megabytes held vitest's main thread while it was
  // ending its workers, long enough for its wait on them to time out.
  return async () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
