// Issue 34, "tools always finish": an agent that streams forever, drips its answer a byte at a time or never sends
// its headers kept `agentproto conformance` waiting for minutes, or for ever after saying 'unreachable'. Every check
// and the whole run have deadlines now; what they cut is reported as cut, with the deadline that cut it, and nothing
// the run abandoned keeps the process alive. Each hostile agent here never finishes, and each deadline is short: the
// verdicts are the same however slow the machine.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentProtocolClient } from '@agentproto/agent-protocol/v1';
import { createInspector } from '@agentproto/cli/inspector';
import { resolveBinding, runConformance } from '@agentproto/conformance';
import { RpcCaller } from '@agentproto/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileKind, type HostilePeer, startHostilePeer } from '../support/hostile-peers.js';
import { BIN, runCollected } from '../support/run-cli.js';
import { ROOT } from '../support/spec-files.js';
import { prop } from '../support/typed.js';

const peers = new Map<HostileKind, HostilePeer>();

beforeAll(async () => {
  const kinds = ['endless-sse', 'drip', 'silent', 'redirect-loop', 'huge-headers', 'gzip-bomb'] as const;
  for (const kind of kinds) peers.set(kind, await startHostilePeer(kind));
});

afterAll(async () => {
  for (const peer of peers.values()) await peer.close();
});

const urlOf = (kind: HostileKind) => peers.get(kind)?.url ?? '';

/** Runs the command in its own process, as a CI job does: it must end by itself. */
async function runProcess(args: string[]): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d;
  });
  const [code] = await once(child, 'exit');
  return { code: typeof code === 'number' ? code : -1, output };
}

describe('34 > conformance finishes against agents that never do', () => {
  it('never sends headers > unreachable, and the process exits', async () => {
    const got = await runProcess([
      'conformance',
      urlOf('silent'),
      '--protocol',
      'agentscope@1.1',
      '--timeout',
      '200',
    ]);
    expect(got.code).toBe(2);
    expect(got.output).toMatch(/is unreachable: GET \/: no answer within 200 ms/);
  });

  it('an endless stream > the check is cut at its deadline, and says so', async () => {
    const report = await runConformance({
      protocol: 'agentscope@1.1',
      target: urlOf('endless-sse'),
      // As below: only the check's deadline may end the stream, never a stall between its events.
      timeoutMs: ENDS_ITSELF_MS,
      checkDeadlineMs: 300,
    });
    const stream = report.checks.find((c) => c.id === 'as.process.stream');
    expect(stream).toMatchObject({ status: 'fail', message: "cut: the check's deadline of 300 ms passed" });
  });

  it('one byte at a time > the run is cut at its deadline: the check running and those after it', async () => {
    // The drip sends a byte every 20 ms; a wait per chunk far longer than any stall of a busy machine leaves the run's
    // deadline as the only thing that ends it (with 200 ms, a loaded machine's stall failed the stream check as a
    // timeout before the deadline came, and the cut landed on a later check).
    const report = await runConformance({
      protocol: 'agentscope@1.1',
      target: urlOf('drip'),
      timeoutMs: ENDS_ITSELF_MS,
      deadlineMs: 1000,
    });
    const cut = report.checks.filter((c) =>
      c.message.startsWith("cut: the run's deadline of 1000 ms passed"),
    );
    expect(cut.map((c) => c.id)).toContain('as.process.stream');
    expect(report.checks.find((c) => c.id === 'as.process.stream')?.status).toBe('fail');
  });

  it.each<[HostileKind, RegExp]>([
    ['redirect-loop', /is unreachable: too many redirects \(more than 20\): a redirect loop/],
    ['huge-headers', /is unreachable: the answer’s headers are larger than the client reads \(16 KiB\)/],
  ])('%s > unreachable, saying what failed rather than "fetch failed"', async (kind, want) => {
    // These peers end the request themselves (a hop count, a size): the wait is long enough never to come first.
    await expect(
      runConformance({ protocol: 'agentscope@1.1', target: urlOf(kind), timeoutMs: ENDS_ITSELF_MS }),
    ).rejects.toThrow(want);
  });

  it('gzip bomb > a body that inflates without end fails its check, and is not held', async () => {
    // The request's wait (1 s) is well below the check's deadline (5 s), so the check ends by its request's outcome:
    // the size bound, or on a busy machine the wait; both are true of this peer, and neither is the deadline's cut.
    const report = await runConformance({
      protocol: 'agentscope@1.1',
      target: urlOf('gzip-bomb'),
      timeoutMs: 1000,
      checkDeadlineMs: 5000,
    });
    const health = report.checks.find((c) => c.id === 'as.health');
    expect(health?.status).toBe('fail');
    expect(health?.message).toMatch(
      /larger than 67108864 bytes \(once decompressed\)|no answer within 1000 ms/,
    );
  });

  it('the command > --deadline cuts the run, the report says what was cut, and the process exits', async () => {
    const got = await runProcess([
      'conformance',
      urlOf('endless-sse'),
      '--protocol',
      'agentscope@1.1',
      // Only the deadline may end the stream, never a stall between its events (see above).
      '--timeout',
      String(ENDS_ITSELF_MS),
      '--deadline',
      '1000',
    ]);
    expect(got.code).toBe(1);
    expect(got.output).toMatch(
      /FAIL {2}MUST {3}as\.process\.stream: cut: the run's deadline of 1000 ms passed/,
    );
  });

  it.each([
    ['--deadline', '0'],
    ['--check-deadline', 'soon'],
  ])('the command > %s %s is a usage error', async (option, value) => {
    const got = await runCollected([
      'conformance',
      urlOf('silent'),
      '--protocol',
      'agentscope@1.1',
      option,
      value,
    ]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(`${option} must be a positive number of milliseconds`);
  });
});

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-34-'));

/** A folder of schemas for `diff`: `<Type>.schema.json` files, and examples by type. */
function schemaFolder(
  name: string,
  types: Record<string, string>,
  examples: Record<string, string> = {},
): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const [type, text] of Object.entries(types))
    writeFileSync(path.join(dir, `${type}.schema.json`), text);
  for (const [type, text] of Object.entries(examples)) {
    mkdirSync(path.join(dir, 'examples', type), { recursive: true });
    writeFileSync(path.join(dir, 'examples', type, 'one.json'), text);
  }
  return dir;
}

const stringWith = (pattern: string) =>
  JSON.stringify({ type: 'object', properties: { s: { type: 'string', pattern } } });

describe('34 > diff finishes on any schema a pull request brings', () => {
  it('pattern > ^(a+)+$ against a 79-character example answers, with a witness', async () => {
    const long = `${'a'.repeat(78)}!`;
    const old = schemaFolder('catastrophic-old', { T: stringWith('^(a+)+$') });
    const next = schemaFolder(
      'catastrophic-new',
      { T: stringWith('^a+!$') },
      { T: JSON.stringify({ s: long }) },
    );
    const got = await runCollected(['diff', old, next]);
    expect(got.code).toBe(0);
    expect(got.out).toContain(`witness (receivers): {"s":"${long}"}`);
  });

  it('pattern > one that needs backtracking is reported as an undecided witness', async () => {
    const old = schemaFolder('backref-old', { T: stringWith('^(a)\\1$') });
    const next = schemaFolder('backref-new', { T: stringWith('^a+$') });
    const got = await runCollected(['diff', old, next]);
    expect(got.out).toMatch(/breaks both \(witness undecided\)/);
    expect(got.out).toMatch(/witness undecided: the pattern "\^\(a\)\\\\1\$" needs a backtracking engine/);
  });

  it('FIFO > a FIFO named *.schema.json is refused, not read', async () => {
    const old = schemaFolder('fifo-old', { T: stringWith('^a$') });
    const next = schemaFolder('fifo-new', { T: stringWith('^a$') });
    expect(spawnSync('mkfifo', [path.join(next, 'Pipe.schema.json')]).status).toBe(0);
    const got = await runCollected(['diff', old, next]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/Pipe\.schema\.json: not a regular file/);
  });

  it('depth > a 10,000-deep schema nests too deep, and is not called "not valid JSON"', async () => {
    const deep = `${'{"not":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const old = schemaFolder('deep-old', { T: deep });
    const next = schemaFolder('deep-new', { T: stringWith('^a$') });
    const got = await runCollected(['diff', old, next]);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/T\.schema\.json: nests too deep/);
    expect(got.err).not.toMatch(/not valid JSON/);
  });
});

describe('34 > new never writes outside its folder', () => {
  it('--force > a link in the folder that leads outside is refused, and the file it names is untouched', async () => {
    const outside = path.join(tmp, 'outside.json');
    writeFileSync(outside, 'precious');
    const project = path.join(tmp, 'linked-project');
    mkdirSync(project, { recursive: true });
    symlinkSync(outside, path.join(project, 'package.json'));
    const got = await runCollected(['new', project, '--protocol', 'agentscope@1.1', '--force', '--registry']);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(
      /package\.json is a link to .*outside\.json, outside .*: agentproto new does not write through it/,
    );
    expect(readFileSync(outside, 'utf8')).toBe('precious');
  });

  it('--force > a linked folder that leads outside is refused too', async () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const project = path.join(tmp, 'linked-folder-project');
    mkdirSync(project, { recursive: true });
    symlinkSync(elsewhere, path.join(project, 'src'));
    const got = await runCollected(['new', project, '--protocol', 'agentscope@1.1', '--force', '--registry']);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/src is a link to .*elsewhere/);
  });

  it('--force > a link that stays inside is followed, even to a name that starts with two dots', async () => {
    const project = path.join(tmp, 'dotted-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, '..notes'), 'kept here');
    symlinkSync(path.join(project, '..notes'), path.join(project, 'README.md'));
    const got = await runCollected(['new', project, '--protocol', 'agentscope@1.1', '--force', '--registry']);
    expect(got.err).toBe('');
    expect(got.code).toBe(0);
    expect(readFileSync(path.join(project, '..notes'), 'utf8')).toMatch(/^# /);
  });

  it('next > the hint quotes a folder the shell would split', async () => {
    const project = path.join(tmp, "my agent's folder");
    const got = await runCollected([
      'new',
      project,
      '--protocol',
      'agentscope@1.1',
      '--name',
      'my-agent',
      '--registry',
    ]);
    expect(got.code).toBe(0);
    expect(got.out).toContain(`next: cd '${project.replace("'", "'\\''")}' && npm install`);
  });
});

describe('34 > a new project says what is wrong with its store in one line', () => {
  it('AGENT_STORE naming a file that is not SQLite > one line and exit 2, no stack trace', async () => {
    // Inside the checkout (.tmp/ is ignored), so the project resolves our packages without installing anything.
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    const project = mkdtempSync(path.join(ROOT, '.tmp', 'agentproto-34-'));
    const made = await runCollected([
      'new',
      project,
      '--protocol',
      'agent-protocol-2025',
      '--name',
      'store-check',
      '--registry',
      '--force',
    ]);
    expect(made.code).toBe(0);
    const bad = path.join(project, 'not-a-database.db');
    writeFileSync(bad, 'this is a text file, not a SQLite database; '.repeat(20));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, AGENT_STORE: `sqlite:${bad}`, PORT: '0' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    const [code] = await once(child, 'exit');
    rmSync(project, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(err.trim()).toMatch(
      /^server\.ts: cannot open the store "sqlite:.*not-a-database\.db": file is not a database$/,
    );
  });
});

/**
 * How long a client waits for a peer: 300 ms for those that never answer (the wait is what is tested), and for those
 * that end the request themselves (a redirect loop's hop count, a size bound) long enough never to come first on a
 * busy machine, where twenty redirects can take longer than 300 ms. The gzip bomb's wait is what the tests say.
 */
const ENDS_ITSELF_MS = 60_000;
const waitFor = (kind: HostileKind) =>
  kind === 'redirect-loop' || kind === 'huge-headers' ? ENDS_ITSELF_MS : 300;

describe('34 > the generated clients give up, and say why', () => {
  it.each<[HostileKind, RegExp]>([
    ['silent', /^GET http:\/\/127\.0\.0\.1:\d+\/ap\/v1\/agent\/tasks: no answer within 300 ms$/],
    ['drip', /: no answer within 300 ms$/],
    ['redirect-loop', /: too many redirects \(more than 20\): a redirect loop/],
    ['huge-headers', /: the answer’s headers are larger than the client reads \(16 KiB\)/],
    [
      'gzip-bomb',
      /: the answer's body is larger than 67108864 bytes \(once decompressed\)|no answer within 300 ms/,
    ],
  ])('%s > the request rejects with a message that says what failed', async (kind, want) => {
    const client = createAgentProtocolClient({ baseUrl: urlOf(kind), timeoutMs: waitFor(kind) });
    await expect(client.listAgentTasks()).rejects.toThrow(want);
  });
});

describe('34 > the JSON-RPC client gives up, and says why', () => {
  it.each<[HostileKind, RegExp]>([
    ['silent', /^POST http:\/\/127\.0\.0\.1:\d+\/: no answer within 300 ms$/],
    ['drip', /no answer within 300 ms$/],
    ['huge-headers', /the answer’s headers are larger than the client reads/],
  ])('%s > the call rejects with a message that says what failed', async (kind, want) => {
    const caller = new RpcCaller({ url: `${urlOf(kind)}/`, timeoutMs: waitFor(kind) });
    await expect(caller.call('GetTask', { id: 'x' })).rejects.toThrow(want);
  });
});

describe('34 > the inspector gives up on an exchange, and says why', () => {
  it.each<[HostileKind, RegExp]>([
    ['silent', /^POST http:\/\/127\.0\.0\.1:\d+\/ap\/v1\/agent\/tasks: no answer within 300 ms$/],
    ['drip', /no answer within 300 ms$/],
    ['redirect-loop', /too many redirects \(more than 20\): a redirect loop/],
  ])('%s > the exchange ends with an error line', async (kind, want) => {
    const { app } = await createInspector({
      binding: await resolveBinding('agent-protocol'),
      target: urlOf(kind),
      timeoutMs: waitFor(kind),
    });
    const answer = await app.request('/api/send', {
      method: 'POST',
      headers: { 'x-agentproto-inspector': '1', 'content-type': 'application/json', host: '127.0.0.1:7000' },
      body: JSON.stringify({ operation: 'createAgentTask', body: '{"input":"hi"}' }),
    });
    const lines = (await answer.text())
      .trim()
      .split('\n')
      .map((l): unknown => JSON.parse(l));
    expect(
      prop(
        lines.find((l) => prop(l, 'error') !== undefined),
        'error',
      ),
    ).toMatch(want);
  });
});
