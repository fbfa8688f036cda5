// Helpers for tests that walk the user's path: our packages as tarballs, installed with npm into folders outside the
// repository (no workspace links), then run there.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFailure } from './typed.js';

/** The tarball of each package in `dir`, by package name (`@agentproto/runtime`). */
export function tarballsIn(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir)) {
    const m = /^agentproto-(.+)-\d+\.\d+\.\d+\.tgz$/.exec(f);
    if (m?.[1]) out[`@agentproto/${m[1]}`] = path.join(dir, f);
  }
  return out;
}

/** Runs npm in `dir`; returns its standard output, or throws with both streams. */
export function npm(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync('npm', args, {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 300_000,
      env: { ...process.env, NODE_ENV: 'development', ...env },
    });
  } catch (error) {
    const e = execFailure(error);
    throw new Error(`npm ${args.join(' ')} in ${dir} failed: ${e.message}\n${e.stdout}\n${e.stderr}`);
  }
}

/**
 * A new folder outside the repository with a package.json, and these tarballs (or any other specs npm takes)
 * installed in it by one `npm install`. npm takes the registry's packages from its cache when it holds them
 * (`--prefer-offline`: the stage's first install fills it, and asking the registry again whether each cached manifest
 * is current would only add waits).
 */
export function installInNewFolder(prefix: string, specs: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  npm(dir, ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs]);
  return dir;
}

/**
 * The URL a child process prints (the first match of `pattern`'s group 1 in its stdout or stderr). Rejects, with what
 * it printed, when the child exits first or prints none within `timeoutMs` (a bound for a stuck child, not a verdict
 * on speed: a server that starts prints its URL in a second or two).
 */
export function printedUrl(
  child: ChildProcess,
  what: string,
  pattern = /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  timeoutMs = 60_000,
): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} printed no URL within ${timeoutMs / 1000} s: ${output}`)),
      timeoutMs,
    );
    const read = (d: Buffer) => {
      output += d;
      const m = pattern.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before printing its URL: ${output}`));
    });
  });
}

/**
 * Starts a project with `npm start` on a free port, waits for the URL it prints, and asks it `probe`. Then stops it
 * the way a user does, with `kill` of npm's process id, and checks that the port is closed.
 */
export async function startProbeAndKill(
  dir: string,
  probe: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number; closed: boolean }> {
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await printedUrl(child, 'npm start');
    const status = (await fetch(`${url}${probe}`)).status;
    child.kill('SIGTERM');
    // The server must go away with npm's process: poll the port for up to 10 s.
    for (let i = 0; i < 50; i++) {
      try {
        await fetch(`${url}${probe}`, { signal: AbortSignal.timeout(1_000) });
      } catch {
        return { status, closed: true };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return { status, closed: false };
  } finally {
    child.kill('SIGKILL');
  }
}
