import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { serveLocal } from '@agentproto/runtime';
import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../exit-codes.js';
import { runCli } from '../index.js';
import { type ServeOptions, serveCommand } from './serve.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/agentproto.js');

/** Serves `spec` on a free port until `probe` has run; returns the exit code, the lines and what `probe` returned. */
async function serveAndProbe<T>(spec: string, options: ServeOptions, probe: (url: string) => Promise<T>) {
  const out: string[] = [];
  let stop = () => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let seen: T | undefined;
  let failure: unknown;
  const io = {
    out: (line: string) => {
      out.push(line);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (!url) return stop();
      probe(url)
        .then(
          (v) => {
            seen = v;
          },
          (e) => {
            failure = e;
          },
        )
        .finally(stop);
    },
    err: (line: string) => out.push(line),
    stdin: async function* () {},
  };
  const code = await serveCommand(spec, { port: '0', ...options }, io, until);
  if (failure) throw failure;
  return { code, out: out.join('\n'), seen };
}

const every = knownProtocols().flatMap((p) => p.versions.map((v) => `${p.protocol}@${v.version}`));

describe('serve > every protocol version has a reference agent that answers', () => {
  it.each(every)('%s', async (spec) => {
    const r = await serveAndProbe(spec, {}, async (url) => (await fetch(url)).status);
    expect(r.code, r.out).toBe(0);
    // The root may be a 404 problem for some protocols; what matters is that the agent answers without failing.
    expect(r.seen).toBeLessThan(500);
  });
});

describe('serve > options', () => {
  it('--agent > a version with several agents serves the one asked for', async () => {
    const r = await serveAndProbe('fixie', { agent: 'standalone' }, async () => 0);
    expect(r.out).toMatch(/^Fixie standalone reference agent listening on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('a version > the agent of that version', async () => {
    const r = await serveAndProbe('agentscope@0.1', {}, async (url) => {
      const res = await fetch(`${url}/process`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
      });
      return { status: res.status, type: res.headers.get('content-type') };
    });
    expect(r.out).toMatch(/^AgentScope 0\.1 reference agent listening on /);
    expect(r.seen).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/event-stream/) });
  });

  it('--store > the agent keeps its state there', async () => {
    const r = await serveAndProbe('agent-protocol', { store: 'sqlite::memory:' }, async () => 0);
    expect(r.out).toMatch(/\(store: sqlite; Ctrl-C stops it\)$/);
  });

  const refused: Array<[string, { spec: string; options: ServeOptions; want: RegExp }]> = [
    ['unknown protocol', { spec: 'nope', options: {}, want: /nope/ }],
    ['unknown version > names the known ones', { spec: 'agentscope@0.3', options: {}, want: /0\.1.*1\.1/ }],
    [
      'unknown agent > names the agents',
      {
        spec: 'fixie',
        options: { agent: 'x' },
        want: /^--agent must be one of code-shot, standalone for fixie@1\.0, not "x"$/,
      },
    ],
    [
      'the cutting board is v1-awaiting-input > not served as v1',
      {
        spec: 'agent-protocol@v1',
        options: { agent: 'cutting-board' },
        want: /one of reference for agent-protocol@v1/,
      },
    ],
    ['bad port', { spec: 'fixie', options: { port: '80a' }, want: /^--port must be a port number/ }],
    [
      'port out of range',
      { spec: 'fixie', options: { port: '70000' }, want: /^--port must be a port number/ },
    ],
    [
      'store for an agent without state',
      { spec: 'fixie', options: { store: 'memory' }, want: /keeps no state/ },
    ],
    [
      'store that names nothing',
      { spec: 'agentscope', options: { store: 'mongo://x' }, want: /^--store: "mongo:\/\/x" names no store/ },
    ],
  ];
  it.each(refused)('refused > %s', async (_, { spec, options, want }) => {
    const io = { out: () => {}, err: () => {}, stdin: async function* () {} };
    const run = serveCommand(spec, { port: '0', ...options }, io, Promise.resolve());
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(want);
  });

  it('a port in use > a usage error naming it', async () => {
    const busy = await serveLocal(() => new Response(), 0);
    try {
      const port = new URL(busy.url).port;
      const io = { out: () => {}, err: () => {}, stdin: async function* () {} };
      await expect(serveCommand('fixie', { port }, io, Promise.resolve())).rejects.toThrow(
        new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${port}: `),
      );
    } finally {
      busy.server.close();
    }
  });
});

describe("serve > a reference agent's own options", () => {
  const io = { out: () => {}, err: () => {}, stdin: async function* () {} };

  it('a2a --sign-card <file> > the card is served signed, its key beside it', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-serve-key-')), 'card.jwk');
    writeFileSync(file, JSON.stringify({ ...(await exportJWK(privateKey)), alg: 'ES256' }));
    const { code, seen } = await serveAndProbe(
      'a2a',
      { port: '0', rest: ['--sign-card', file] },
      async (url) => {
        const card = await (await fetch(`${url}/.well-known/agent-card.json`)).json();
        const keys = await (await fetch(`${url}/.well-known/jwks.json`)).json();
        return { signatures: card.signatures?.length, keys: keys.keys?.length };
      },
    );
    expect(code).toBe(0);
    expect(seen).toEqual({ signatures: 1, keys: 1 });
  });

  it('a2a --push-allow, twice > both hosts allowed, as the banner says', async () => {
    const { code, out } = await serveAndProbe(
      'a2a',
      { port: '0', rest: ['--push-allow', 'hooks.example', '--push-allow', '127.0.0.1'] },
      async () => undefined,
    );
    expect(code).toBe(0);
    expect(out).toContain('push notifications may also go to: hooks.example, 127.0.0.1');
  });

  it.each<[string, string, string[], RegExp]>([
    [
      'an option the agent does not take',
      'a2a',
      ['--nope', 'x'],
      /--nope.*; it takes --sign-card <private-jwk-file>, --push-allow <host>, --extended-card-token <token>$/,
    ],
    ['an agent with no options of its own', 'fixie', ['--sign-card', 'k'], /; it takes none of its own$/],
    [
      'an option given twice that is not repeatable',
      'a2a',
      ['--sign-card', 'a', '--sign-card', 'b'],
      /^--sign-card may be given once$/,
    ],
    [
      'a key file that is not there',
      'a2a',
      ['--sign-card', '/nonexistent/card.jwk'],
      /^--sign-card: cannot read \/nonexistent\/card\.jwk: ENOENT$/,
    ],
  ])('refused > %s', async (_, spec, rest, want) => {
    const run = serveCommand(spec, { port: '0', rest }, io, Promise.resolve());
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toThrow(want);
  });

  it('the command passes what it does not know to the agent: exit 2, one line', async () => {
    const err: string[] = [];
    const code = await runCli(['serve', 'fixie', '--port', '0', '--nope', '1'], {
      out: () => {},
      err: (l) => err.push(l),
      stdin: async function* () {},
    });
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(
        /^agentproto: fixie@1\.0's reference agent: .*--nope.*; it takes none of its own$/,
      ),
    ]);
  });
});

describe('commands that need a checkout', () => {
  const outside = mkdtempSync(path.join(tmpdir(), 'agentproto-no-checkout-'));
  it.each([
    ['generate', ['generate']],
    ['generate --check', ['generate', '--check']],
    ['version add', ['version', 'add', 'fixie', '2.0', '--from', '1.0']],
  ])('%s > outside a checkout: one line, exit 2', (_, args) => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd: outside,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^agentproto: `agentproto (generate|version add)` works in a checkout of the agentproto repository \(schemas\/ and packages\/\), and there is none here or above; run it in one, or pass --root <checkout>\n$/,
    );
    expect(r.status).toBe(2);
  });
});
