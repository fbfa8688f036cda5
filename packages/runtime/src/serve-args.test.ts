import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseServeArgs, type ServeArgsSpec } from './serve-args.js';

const spec: ServeArgsSpec<'version' | 'store', 'standalone'> = {
  port: 8090,
  strings: { version: { choices: ['0.1', '1.1'] }, store: { value: '<spec>' } },
  flags: ['standalone'],
};

const accepted: Array<[string, { given: string[]; env?: Record<string, string>; want: object }]> = [
  [
    'defaults > the spec port, no values',
    { given: [], want: { port: 8090, strings: {}, flags: { standalone: false } } },
  ],
  ['pnpm passes -- on > a leading -- is dropped', { given: ['--', '--port', '0'], want: { port: 0 } }],
  ['without -- > the same', { given: ['--port', '0'], want: { port: 0 } }],
  ['--port=N > the inline form', { given: ['--port=9000'], want: { port: 9000 } }],
  ['PORT > when --port is not given', { given: [], env: { PORT: '3001' }, want: { port: 3001 } }],
  ['--port > wins over PORT', { given: ['--port', '0'], env: { PORT: '3001' }, want: { port: 0 } }],
  [
    'choices > a listed value',
    {
      given: ['--', '--version', '0.1', '--store', 'sqlite:./a.db'],
      want: { strings: { version: '0.1', store: 'sqlite:./a.db' } },
    },
  ],
  ['flags > present', { given: ['--standalone'], want: { flags: { standalone: true } } }],
];

const refused: Array<[string, { given: string[]; env?: Record<string, string>; want: RegExp }]> = [
  [
    'unknown option > named, with the options',
    {
      given: ['--', '--prot', '1'],
      want: /^unknown option --prot \(options: --port <n>, --version 0\.1\|1\.1, --store <spec>, --standalone\)$/,
    },
  ],
  [
    'a second -- > a positional, refused',
    { given: ['--', '--', '--port', '1'], want: /^unexpected argument "--port"/ },
  ],
  ['positional > refused', { given: ['serve'], want: /^unexpected argument "serve"/ }],
  ['missing value > named', { given: ['--version'], want: /^--version needs a value/ }],
  ['flag with a value > refused', { given: ['--standalone=yes'], want: /^--standalone takes no value/ }],
  [
    'version not listed > refused naming the known ones, not mapped to a default',
    { given: ['--version', '0.3'], want: /^--version must be one of 0\.1, 1\.1, not "0\.3"/ },
  ],
  [
    'port not a number',
    { given: ['--port', 'abc'], want: /^--port must be a port number 0–65535, not "abc"/ },
  ],
  ['port out of range', { given: ['--port', '65536'], want: /^--port must be a port number/ }],
  ['port negative', { given: ['--port=-1'], want: /^--port must be a port number/ }],
  [
    'PORT not a number > names PORT',
    { given: [], env: { PORT: '80a' }, want: /^PORT must be a port number 0–65535, not "80a"/ },
  ],
];

describe('parseServeArgs', () => {
  it.each(accepted)('%s', (_, { given, env, want }) => {
    expect(parseServeArgs(given, spec, env ?? {})).toMatchObject(want);
  });
  it.each(refused)('%s', (_, { given, env, want }) => {
    expect(() => parseServeArgs(given, spec, env ?? {})).toThrow(want);
  });
});

describe('endWithScriptShell', () => {
  /** A node started by `sh -c`, as npm starts a script: the node's pid, and the shell. */
  async function nodeUnderShell(env: NodeJS.ProcessEnv) {
    const module = pathToFileURL(fileURLToPath(new URL('./serve-args.ts', import.meta.url))).href;
    const code = `import { endWithScriptShell } from ${JSON.stringify(module)}; endWithScriptShell(process.env, 20); setInterval(() => {}, 1000); console.log(process.pid);`;
    const shell = spawn('sh', ['-c', 'node --import tsx --input-type=module -e "$CODE"'], {
      env: { ...env, CODE: code },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(shell.stdout, 'data')) as [Buffer]; // sound: a piped stdout emits Buffers
    return { pid: Number(line.toString().trim()), shell };
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** Waits (bounded: 10 s) until `pid` is gone; whether it went. */
  async function gone(pid: number) {
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    return !alive(pid);
  }

  it('under a script > the server ends once the shell that started it is killed', async () => {
    const { pid, shell } = await nodeUnderShell({ ...process.env, npm_lifecycle_event: 'start' });
    shell.kill('SIGTERM');
    expect(await gone(pid)).toBe(true);
  });

  it('outside a script > nothing is watched: the server outlives the shell until it is stopped', async () => {
    const env = { ...process.env };
    delete env.npm_lifecycle_event;
    const { pid, shell } = await nodeUnderShell(env);
    shell.kill('SIGTERM');
    await once(shell, 'exit');
    // The shell is gone; a watcher (20 ms) would have seen it well before the node answers a signal check 10 times.
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(await gone(pid)).toBe(true);
  });
});
