// Every `npx agentproto proxy …` command the READMEs show runs as written, in front of the reference agent it names
// (`npx agentproto serve <protocol>`): the proxy prints where it listens, a client reaches the agent through it and
// reads the card rewritten to name the proxy, and Ctrl-C ends it with exit 0 (nothing invalid passed) and the session
// file written. Changed, so that the run leaves nothing behind: the ports (free ones), the agent's URL (the one the
// agent printed) and the session file (in a temporary folder).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';

const READMES = [
  'README.md',
  'docs/README.md',
  ...readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/README.md`),
].filter((f) => existsSync(path.join(ROOT, f)));

/** A proxy command, as written in a code block line or an inline code span, up to its end or a `#` comment. */
const PROXY = /npx agentproto proxy [^`\n#]+/g;

const commands = [
  ...new Set(
    READMES.flatMap((f) =>
      [...readFileSync(path.join(ROOT, f), 'utf8').matchAll(PROXY)].map((m) => m[0].trim()),
    ),
  ),
];

const scratch = mkdtempSync(path.join(tmpdir(), 'agentproto-readme-proxy-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children)
    try {
      if (c.pid !== undefined) process.kill(-c.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts a command in its own process group; resolves with the first URL its output names after `marker`. */
function started(
  args: string[],
  marker: RegExp,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('npx', args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${output}`)), 60_000);
    const read = (d: Buffer) => {
      output += d;
      const url = marker.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output });
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

describe('README > proxy commands', () => {
  it('the READMEs show one', () => {
    expect(commands.length).toBeGreaterThan(0);
  });

  it.each(commands)(
    '%s > stands for the agent, rewrites its card, and ends with exit 0 on Ctrl-C',
    async (command) => {
      const words = command.split(/\s+/).slice(1);
      const protocol = words[words.indexOf('--protocol') + 1] ?? '';
      const agent = await started(
        ['agentproto', 'serve', protocol, '--port', '0'],
        /listening on (http:\/\/127\.0\.0\.1:\d+)/,
      );
      const session = path.join(scratch, `${children.length}.session.ndjson`);
      const args = words.map((w, i) =>
        /^https?:\/\//.test(w)
          ? agent.url
          : words[i - 1] === '--port'
            ? '0'
            : words[i - 1] === '--session'
              ? session
              : w,
      );
      const proxy = await started(args, / at (http:\/\/127\.0\.0\.1:\d+) → /);
      const card = await fetch(`${proxy.url}/.well-known/agent-card.json`, {
        signal: AbortSignal.timeout(30_000),
      });
      expect(card.status).toBe(200);
      const text = await card.text();
      expect(text).toContain(proxy.url);
      expect(text).not.toContain(agent.url);
      // 'close': every holder of the output pipes has ended, npx and the proxy it started (which prints its summary).
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        proxy.child.once('close', (code, signal) => resolve([code, signal])),
      );
      if (proxy.child.pid !== undefined) process.kill(-proxy.child.pid, 'SIGINT');
      const [code, signal] = await closed;
      // npx itself may end by the signal; the proxy's verdict is its summary line (exit 0: nothing invalid passed).
      expect(code === 0 || signal === 'SIGINT', `${code} ${signal}\n${proxy.output()}`).toBe(true);
      expect(proxy.output()).toMatch(/1 exchanges, 0 invalid messages/);
      if (words.includes('--session'))
        expect(readFileSync(session, 'utf8')).toContain('"direction":"response","status":200');
      if (agent.child.pid !== undefined) process.kill(-agent.child.pid, 'SIGTERM');
    },
    180_000,
  );
});
