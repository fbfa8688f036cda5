// Every `pnpm --filter @agentproto/<package> start …` and `npx agentproto serve …` command the READMEs show runs as
// written: it starts a reference agent, which prints where it listens and answers a request. The commands are read from the READMEs, so one
// added there is run here too. Two things are changed, both so that the run leaves nothing behind: the port (0, a
// free one: `--port 0` in place of the README's, else PORT=0) and a `sqlite:` store's file (moved into a temporary
// folder instead of the package's).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

/** The READMEs a user reads commands from: the repository's, the docs', and any package's. */
const READMES = [
  'README.md',
  'docs/README.md',
  ...readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/README.md`),
].filter((f) => existsSync(path.join(ROOT, f)));

/**
 * A start command, as written: in a code block line or an inline code span, up to its end or a `#` comment. `serve`
 * needs its protocol, so prose that names the command alone (`npx agentproto serve`) is not one.
 */
const START = /pnpm --filter @agentproto\/[a-z0-9-]+ start(?: [^`\n#]*)?|npx agentproto serve [^`\n#]+/g;

/** Every start command the READMEs show, with the file it is in; the same command twice is run once. */
function startCommands(): Array<[string, string]> {
  const found = new Map<string, string>();
  for (const file of READMES)
    for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(START)) {
      const command = m[0].trim();
      if (!found.has(command)) found.set(command, file);
    }
  return [...found].map(([command, file]) => [command, file]);
}

const scratch = mkdtempSync(path.join(tmpdir(), 'agentproto-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The command's arguments with the port and a SQLite file moved, and the environment it runs in. */
function asRun(command: string): { bin: string; args: string[]; env: NodeJS.ProcessEnv } {
  const [bin = '', ...words] = command.split(/\s+/);
  const { AGENT_STORE: _store, PORT: _port, ...env } = process.env;
  const at = words.indexOf('--port');
  if (at >= 0) words[at + 1] = '0';
  else env.PORT = '0';
  const args = words.map((w) =>
    w.startsWith('sqlite:') && w !== 'sqlite::memory:'
      ? `sqlite:${path.join(scratch, `${Math.random().toString(36).slice(2)}-${path.basename(w.slice(7))}`)}`
      : w,
  );
  return { bin, args, env };
}

/** Waits (at most 30 s) for the agent's "listening on <url>" line; rejects with its output if it exits first. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" line within 30 s:\n${output}`)),
      30_000,
    );
    const read = (d: Buffer) => {
      output += d;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Stops the command's process group (pnpm and the node it started) and waits (at most 10 s) for pnpm to exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const commands = startCommands();

describe('README > start commands', () => {
  it('every package with a start script has its start command in the README', () => {
    const shown = new Set(commands.filter(([c]) => c.startsWith('pnpm')).map(([c]) => c.split(' ')[2]));
    const withStart = readdirSync(path.join(ROOT, 'packages'))
      .map((p) => JSON.parse(readFileSync(path.join(ROOT, 'packages', p, 'package.json'), 'utf8')))
      .filter((pkg: { scripts?: Record<string, string> }) => pkg.scripts?.start)
      .map((pkg: { name: string }) => pkg.name);
    expect(withStart.length).toBeGreaterThan(0);
    expect(withStart.filter((name) => !shown.has(name))).toEqual([]);
  });

  it.concurrent.each(commands)('%s (%s) > starts, listens and answers', async (command) => {
    const { bin, args, env } = asRun(command);
    // detached: the command gets its own process group, so stopping it stops the agent pnpm started too.
    const child = spawn(bin, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listening(child);
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      expect(res.status, `GET ${url}`).toBeLessThan(500);
    } finally {
      await stop(child);
    }
  });
});
