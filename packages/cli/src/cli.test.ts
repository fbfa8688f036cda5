import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli } from './index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'packages/cli/bin/agentproto.js');
const V1 = path.join(ROOT, 'schemas/agent-protocol/v1');
const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-cli-'));
const notJson = path.join(tmp, 'broken.json');
writeFileSync(notJson, '{\n  "task_id": "t1",\n  "artifacts": [,]\n}\n');
const wrongType = path.join(tmp, 'task.json');
writeFileSync(wrongType, '{\n  "task_id": 5,\n  "artifacts": []\n}\n');

async function run(args: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: async function* () {
      yield stdin;
    },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cli > validate', () => {
  const cases: Array<[string, { given: string[]; stdin?: string; want: { code: number; text: RegExp } }]> = [
    [
      'valid file > 0',
      {
        given: [`${V1}/examples/Task/minimal.json`, '--protocol', 'agent-protocol', '--type', 'Task'],
        want: { code: 0, text: /1 valid, 0 invalid/ },
      },
    ],
    [
      'folder of examples, types from folder names > 0',
      { given: [`${V1}/examples`, '--protocol', 'agent-protocol@v1'], want: { code: 0, text: /0 invalid/ } },
    ],
    [
      'counterexamples folder > 1',
      {
        given: [`${V1}/counterexamples/Task`, '--protocol', 'agent-protocol'],
        want: { code: 1, text: /\/artifacts\/0: must be object \(Task\)/ },
      },
    ],
    [
      'wrong field type > 1 with file:line: pointer',
      {
        given: [wrongType, '--protocol', 'agent-protocol', '--type', 'Task'],
        want: { code: 1, text: /task\.json:2: \/task_id: must be string \(Task\)/ },
      },
    ],
    [
      'not JSON > 1 with line and column',
      {
        given: [notJson, '--protocol', 'agent-protocol', '--type', 'Task'],
        want: { code: 1, text: /broken\.json:3:\d+: \(root\): not JSON/ },
      },
    ],
    [
      'stdin > 0',
      {
        given: ['-', '--protocol', 'agent-protocol', '--type', 'StepStatus'],
        stdin: '"running"',
        want: { code: 0, text: /1 valid/ },
      },
    ],
    [
      'stdin invalid > 1',
      {
        given: ['-', '--protocol', 'agent-protocol', '--type', 'StepStatus'],
        stdin: '"done"',
        want: { code: 1, text: /<stdin>:1: \(root\): must be one of "created", "running", "completed"/ },
      },
    ],
    [
      'unknown protocol > 2',
      { given: ['x.json', '--protocol', 'nope'], want: { code: 2, text: /unknown protocol "nope"/ } },
    ],
    [
      'unknown version > 2',
      { given: ['x.json', '--protocol', 'agent-protocol@v9'], want: { code: 2, text: /no version "v9"/ } },
    ],
    [
      'unknown type > 2',
      {
        given: [wrongType, '--protocol', 'agent-protocol', '--type', 'Tsak'],
        want: { code: 2, text: /no type "Tsak"/ },
      },
    ],
    [
      'missing path > 2',
      {
        given: [path.join(tmp, 'absent.json'), '--protocol', 'agent-protocol', '--type', 'Task'],
        want: { code: 2, text: /no such file or folder/ },
      },
    ],
    [
      // An input whose type cannot be told is that input's issue, so a folder run goes on past it.
      'no type and no folder hint > 1',
      { given: [wrongType, '--protocol', 'agent-protocol'], want: { code: 1, text: /pass --type/ } },
    ],
    ['missing --protocol > 2', { given: [wrongType], want: { code: 2, text: /--protocol/ } }],
  ];
  it.each(cases)('%s', async (_, { given, stdin, want }) => {
    const r = await run(['validate', ...given], stdin);
    expect(r.code).toBe(want.code);
    expect(`${r.out}\n${r.err}`).toMatch(want.text);
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

// Streams: the upstream-shaped AgentScope capture, as SSE and as NDJSON, and broken copies of it.
const CAPTURE = path.join(ROOT, 'schemas/agentscope/1.1/streams/upstream-shape.sse');
const captureText = readFileSync(CAPTURE, 'utf8');
const captureEvents = captureText
  .split('\n\n')
  .filter(Boolean)
  .map((f) => f.slice('data: '.length));
const asTxt = path.join(tmp, 'capture.txt');
writeFileSync(asTxt, captureText);
const asNdjson = path.join(tmp, 'capture.ndjson');
writeFileSync(asNdjson, `${captureEvents.join('\n')}\n`);
const dropped = path.join(tmp, 'dropped-delta.sse');
writeFileSync(
  dropped,
  captureEvents
    .filter((_, i) => i !== 4)
    .map((e) => `data: ${e}\n\n`)
    .join(''),
);
const garbled = path.join(tmp, 'garbled.sse');
writeFileSync(garbled, captureText.replace('data: {"sequence_number":1,', 'data: {"sequence_number":1,,'));

describe('cli > validate streams', () => {
  const cases: Array<[string, { given: string[]; stdin?: string; want: { code: number; text: RegExp } }]> = [
    [
      'sse > the upstream shape passes',
      {
        given: [CAPTURE, '--protocol', 'agentscope@1.1', '--format', 'sse'],
        want: { code: 0, text: /0 of 10 items invalid in 1 file \(agentscope@1\.1\)/ },
      },
    ],
    [
      'auto > an SSE capture named .txt is recognised',
      {
        given: [asTxt, '--protocol', 'agentscope@1.1'],
        want: { code: 0, text: /0 of 10 items invalid in 1 file/ },
      },
    ],
    [
      'ndjson > the same events, one per line',
      {
        given: [asNdjson, '--protocol', 'agentscope@1.1', '--format', 'ndjson'],
        want: { code: 0, text: /0 of 10 items invalid in 1 file/ },
      },
    ],
    [
      'stdin > ndjson from standard input',
      {
        given: ['-', '--protocol', 'agentscope', '--format', 'ndjson'],
        stdin: `${captureEvents.join('\n')}\n`,
        want: { code: 0, text: /0 of 10 items invalid in 1 file/ },
      },
    ],
    [
      'rules > a dropped delta is named with its line, event number and rule',
      {
        given: [dropped, '--protocol', 'agentscope@1.1'],
        want: {
          code: 1,
          text: /dropped-delta\.sse:13: event 7: \/text: must equal the concatenation of the 3 deltas streamed before it \[delta-concat\]/,
        },
      },
    ],
    [
      'schema > 1.1 integers are not 0.1 strings',
      {
        given: [CAPTURE, '--protocol', 'agentscope@0.1'],
        want: {
          code: 1,
          text: /upstream-shape\.sse:1: event 1: \/sequence_number: must be string or null \(AgentResponse\)/,
        },
      },
    ],
    [
      'not JSON > the broken frame is named',
      {
        given: [garbled, '--protocol', 'agentscope@1.1'],
        want: { code: 1, text: /garbled\.sse:3: event 2: \(event\): not JSON/ },
      },
    ],
    [
      '--type > each item checked as that type only',
      {
        given: [asNdjson, '--protocol', 'agentscope@1.1', '--type', 'AgentResponse'],
        want: { code: 1, text: /capture\.ndjson:3: event 3: \/object: must be "response" \(AgentResponse\)/ },
      },
    ],
    [
      'bad format > 2',
      {
        given: [CAPTURE, '--protocol', 'agentscope', '--format', 'xml'],
        want: { code: 2, text: /--format must be one of/ },
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, stdin, want }) => {
    const r = await run(['validate', ...given], stdin);
    expect(`${r.out}\n${r.err}`).toMatch(want.text);
    expect(r.code).toBe(want.code);
  });
});

// Fixie handshakes: the few-shot grammar runs with the schema, on JSON and YAML alike.
const handshake = path.join(tmp, 'handshake.json');
writeFileSync(
  handshake,
  `${JSON.stringify({ base_prompt: 'x', few_shots: ['Q: Hi\nA: Hello', 'Q: Roll\nAsk Func[roll]: 2d6\nA: 7'] }, null, 2)}\n`,
);
const handshakeYaml = path.join(tmp, 'handshake.yaml');
writeFileSync(handshakeYaml, 'base_prompt: x\nfew_shots:\n  - "Q: Hi\\nA: Hello"\ntype: code_shot\n');

// Draft-2025 event logs: each item typed by its `type`, and the event rules.
const ev = (id: number, type: string, extra = '') =>
  `{"id":${id},"run_id":1,"agent":"a","type":"${type}","role":"system","depth":0,"request_id":"r1"${extra}}`;
const eventLog = path.join(tmp, 'events.ndjson');
writeFileSync(
  eventLog,
  [
    ev(1, 'RequestStarted'),
    ev(2, 'TextOutput', ',"content":"hi"'),
    ev(3, 'RequestCompleted', ',"finish_reason":"success"'),
  ].join('\n'),
);
const lateLog = path.join(tmp, 'late.ndjson');
writeFileSync(
  lateLog,
  [
    ev(1, 'RequestStarted'),
    ev(2, 'RequestCompleted', ',"finish_reason":"success"'),
    ev(3, 'TextOutput', ',"content":"late"'),
  ].join('\n'),
);

describe('cli > validate with protocol rules', () => {
  const cases: Array<[string, { given: string[]; want: { code: number; text: RegExp } }]> = [
    [
      'fixie > a few-shot that breaks the grammar is named with its line and rule',
      {
        given: [handshake, '--protocol', 'fixie', '--type', 'AgentMetadata'],
        want: {
          code: 1,
          text: /handshake\.json:5: \/few_shots\/1: line 2 of the few-shot: must be followed on the next line by "Func\[roll\] says:" \[reply-follows-ask\]/,
        },
      },
    ],
    [
      'fixie > a YAML handshake',
      {
        given: [handshakeYaml, '--protocol', 'fixie@1.0', '--type', 'AgentMetadata'],
        want: { code: 0, text: /1 valid, 0 invalid \(fixie@1\.0\)/ },
      },
    ],
    [
      'draft 2025 > an event log that keeps the rules',
      {
        given: [eventLog, '--protocol', 'agent-protocol-2025'],
        want: { code: 0, text: /0 of 3 items invalid in 1 file \(agent-protocol-2025@draft-2025-02\)/ },
      },
    ],
    [
      'draft 2025 > an event after RequestCompleted',
      {
        given: [lateLog, '--protocol', 'agent-protocol-2025'],
        want: {
          code: 1,
          text: /late\.ndjson:3: event 3: \/type: request "r1" already completed \[one-completion\]/,
        },
      },
    ],
    [
      'awaiting_input > the extension accepts what v1 rejects',
      {
        given: [
          path.join(ROOT, 'schemas/agent-protocol/v1-awaiting-input/examples'),
          '--protocol',
          'agent-protocol@v1-awaiting-input',
        ],
        want: { code: 0, text: /2 valid, 0 invalid/ },
      },
    ],
    [
      'awaiting_input > v1 rejects it',
      {
        given: [
          path.join(ROOT, 'schemas/agent-protocol/v1-awaiting-input/examples'),
          '--protocol',
          'agent-protocol@v1',
        ],
        want: { code: 1, text: /\/status: must be one of "created", "running", "completed" \(Step\)/ },
      },
    ],
    [
      'fixie > the examples folder',
      {
        given: [path.join(ROOT, 'schemas/fixie/1.0/examples'), '--protocol', 'fixie'],
        want: { code: 0, text: /0 invalid/ },
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, want }) => {
    const r = await run(['validate', ...given]);
    expect(`${r.out}\n${r.err}`).toMatch(want.text);
    expect(r.code).toBe(want.code);
  });
});

describe('cli > validate reporters', () => {
  it('json > one document: summary and each input with its issues', async () => {
    const r = await run(['validate', CAPTURE, dropped, '--protocol', 'agentscope@1.1', '--reporter', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.summary).toEqual({ files: 2, valid: 1, invalid: 1, items: 19, invalidItems: 1 });
    expect(report.results[1]).toMatchObject({
      file: dropped,
      format: 'sse',
      valid: false,
      items: 9,
      invalidItems: 1,
    });
    expect(report.results[1].issues[0]).toMatchObject({
      line: 13,
      event: 7,
      pointer: '/text',
      rule: 'delta-concat',
    });
    expect(r.err).toBe('');
  });

  it('junit > one testcase per input, the invalid one failed', async () => {
    const r = await run([
      'validate',
      CAPTURE,
      dropped,
      '--protocol',
      'agentscope@1.1',
      '--reporter',
      'junit',
    ]);
    expect(r.code).toBe(1);
    expect(XMLValidator.validate(r.out)).toBe(true);
    expect(r.out.match(/<testcase /g)).toHaveLength(2);
    expect(r.out.match(/<failure /g)).toHaveLength(1);
  });

  it('bad reporter > 2', async () => {
    expect((await run(['validate', CAPTURE, '--protocol', 'agentscope', '--reporter', 'html'])).code).toBe(2);
  });
});

describe('cli > validate with workers', () => {
  it('workers > the same issues, with the same line and item numbers, as one thread', async () => {
    const lines: string[] = [];
    for (let n = 1; n <= 20_000; n++) {
      const broken = n === 3 || n === 15_000;
      lines.push(
        `{"id":${n},"run_id":1,"agent":"a","type":"TextOutput","role":"assistant","depth":${broken ? -1 : 0},"content":"x"}`,
      );
      if (n === 10_000) lines.push('');
    }
    const file = path.join(tmp, 'workers.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const args = ['validate', file, '--protocol', 'agent-protocol-2025', '--type', 'TextOutput'];
    const one = await run(args);
    const three = await run([...args, '--workers', '3']);
    expect(one.code).toBe(1);
    expect(one.out).toMatch(/workers\.ndjson:3: event 3: \/depth: must be >= 0 \(TextOutput\)/);
    expect(one.out).toMatch(/workers\.ndjson:15001: event 15000: \/depth/);
    expect(three.code).toBe(1);
    expect(three.out).toBe(one.out);
  }, 60_000);

  it('workers > a bad count is a usage error', async () => {
    expect((await run(['validate', CAPTURE, '--protocol', 'agentscope', '--workers', '0'])).code).toBe(2);
  });
});

describe('cli > validate streams in flat memory', () => {
  it('ndjson > 150 MB of events validate in a process whose heap is capped at 64 MB', async () => {
    // A reader that held the input would run out of heap; one that streams keeps a few chunks at a time.
    const child = spawn(
      process.execPath,
      [
        '--max-old-space-size=64',
        BIN,
        'validate',
        '-',
        '--protocol',
        'agent-protocol-2025',
        '--format',
        'ndjson',
        '--type',
        'TextOutput',
      ],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, CI: 'true' },
      },
    );
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const event = (n: number) =>
      `{"id":${n},"run_id":1,"agent":"a","type":"TextOutput","role":"assistant","depth":0,"content":"${'x'.repeat(1000)}"}\n`;
    const batch = (from: number) => Array.from({ length: 100 }, (_, k) => event(from + k)).join('');
    for (let n = 1; n <= 140_000; n += 100) {
      if (!child.stdin.write(batch(n))) await once(child.stdin, 'drain');
    }
    child.stdin.end();
    expect(await exited, output).toBe(0);
    expect(output).toMatch(/0 of 140000 items invalid in 1 file/);
  }, 120_000);
});

describe('cli > new', () => {
  // Vendored projects (the default: tarballs packed into vendor/) are installed and run end to end in
  // test/installed/; here --registry keeps the test fast.
  it('writes a project, and refuses a folder that is not empty unless --force', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-new-'));
    const project = path.join(dir, 'my-agent');
    const first = await run(['new', project, '--protocol', 'agentscope', '--registry']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/wrote a agentscope@1\.1 agent/);
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'my-agent',
      // Scripts any shell runs: no `exec`, no glob (Windows' cmd has neither).
      scripts: {
        start: 'node --import tsx src/server.ts',
        test: 'node --import tsx --test test/conformance.test.ts',
        typecheck: 'tsc',
      },
      dependencies: { '@agentproto/agentscope': '^0.1.0', '@agentproto/runtime': '^0.1.0' },
      devDependencies: { '@agentproto/conformance': '^0.1.0', typescript: expect.any(String) },
    });
    // Only the protocol's own package: a project of one protocol installs nothing of the others.
    expect(Object.keys(manifest.dependencies).filter((d) => d.startsWith('@agentproto/'))).toEqual([
      '@agentproto/agentscope',
      '@agentproto/runtime',
    ]);
    expect(manifest.overrides).toBeUndefined();
    expect(readFileSync(path.join(project, 'src/server.ts'), 'utf8')).toMatch(
      /runServeScript\(\{ port: 3000 \}/,
    );
    const again = await run(['new', project, '--protocol', 'agentscope', '--registry']);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/is not empty; pass --force/);
    expect((await run(['new', project, '--protocol', 'fixie', '--force', '--registry'])).code).toBe(0);
    expect(readFileSync(path.join(project, 'src/agent.ts'), 'utf8')).toMatch(/createCodeShotAgent/);
  });

  // A stateful project keeps its state in memory unless --store names another: it installs with no native build.
  const stores: Array<[string, { args: string[]; opens: string; driver?: string; ignored: string }]> = [
    ['store > memory by default, no driver', { args: [], opens: '"memory"', ignored: 'node_modules/\n' }],
    [
      'store > --store sqlite: better-sqlite3 and agent.db',
      {
        args: ['--store', 'sqlite'],
        opens: '"sqlite:./agent.db"',
        driver: 'better-sqlite3',
        ignored: 'node_modules/\nagent.db*\n',
      },
    ],
    [
      'store > --store redis: ioredis',
      {
        args: ['--store', 'redis'],
        opens: '"redis://127.0.0.1:6379"',
        driver: 'ioredis',
        ignored: 'node_modules/\n',
      },
    ],
  ];
  it.each(stores)('%s', async (_, { args, opens, driver, ignored }) => {
    const project = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-new-')), 'stateful');
    const r = await run(['new', project, '--protocol', 'agent-protocol-2025', '--registry', ...args]);
    expect(r.code, r.err).toBe(0);
    const deps = Object.keys(
      JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).dependencies,
    );
    expect(deps.filter((d) => d === 'better-sqlite3' || d === 'ioredis')).toEqual(driver ? [driver] : []);
    expect(readFileSync(path.join(project, 'src/server.ts'), 'utf8')).toContain(
      `openStore(process.env.AGENT_STORE || ${opens})`,
    );
    expect(readFileSync(path.join(project, '.gitignore'), 'utf8')).toBe(ignored);
  });

  const bad: Array<[string, { args: string[]; want: RegExp }]> = [
    [
      'unknown store',
      {
        args: ['new', path.join(tmp, 's'), '--protocol', 'a2a', '--store', 'postgres'],
        want: /--store must be one of memory, sqlite, redis, not "postgres"/,
      },
    ],
    [
      'a store for a project that keeps no state',
      {
        args: ['new', path.join(tmp, 't'), '--protocol', 'fixie', '--store', 'sqlite'],
        want: /fixie@1\.0 keeps no state: its projects take no --store/,
      },
    ],
    [
      'unknown protocol',
      {
        args: ['new', path.join(tmp, 'x'), '--protocol', 'nope'],
        want: /unknown protocol "nope"; known: a2a, agent-protocol, /,
      },
    ],
    [
      'bad name',
      {
        args: ['new', path.join(tmp, 'y'), '--protocol', 'fixie', '--name', 'My Agent'],
        want: /not a valid npm package name/,
      },
    ],
  ];
  it.each(bad)('refuses > %s', async (_, { args, want }) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(want);
  });
});

describe('cli > usage', () => {
  it('unknown command > 2', async () => {
    expect((await run(['frobnicate'])).code).toBe(2);
  });
});

describe('cli > generate', () => {
  it('generate --check > the committed files are up to date', async () => {
    const r = await run(['generate', '--check', '--root', ROOT]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});
