// `pnpm tck:a2a [--out <dir>] [--transport jsonrpc,http_json] [--level must|should|may] [--any-commit]`: runs the
// official A2A TCK, 1.0 line (a2aproject/a2a-tck, branch 1.0-dev, pinned in harness.ts), against the reference agent.
// The TCK is not fetched: A2A_TCK_DIR names a checkout of it (CI machines reach only npm and Debian). For each
// transport the harness starts the agent (the a2a package's start script, on 127.0.0.1, port 0, push notifications
// allowed to this machine, where the TCK's webhook receiver listens, and to example.com, the host of the TCK's
// configuration-only webhook URLs: allowed by name, it is never resolved, and no task those configs are set on
// changes again), copies the TCK's folders to a temporary folder with a pytest.ini of its own (the TCK's asks for
// pytest 8; Debian has 7.2), and runs its tests/compatibility on Debian's /usr/bin/python3 with tck_plumbing.py
// (what Debian's packages lack, and the results file). The TCK's tests and its JSON-RPC client's URL behaviour are run
// as they are. Writes <out>/results.json (per transport, each test id's outcome and reason), the TCK's own reports
// and logs per transport, and ends with one summary line. Exit 0: every failure is one the expected-failures file
// lists and every listed test failed; 1: otherwise; 2: the harness could not run (no TCK, another commit, Python
// packages missing, the agent or pytest did not start or finish in time).
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  asExpected,
  type Comparison,
  checkTckCheckout,
  compareWithExpected,
  describeProblems,
  isTransport,
  parseExpectedTckFailures,
  parseTransportResults,
  summaryPart,
  TCK_COMMIT,
  TCK_FOLDERS,
  TckHarnessError,
  TRANSPORTS,
  type Transport,
  type TransportResults,
} from './harness.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HERE = import.meta.dirname;
const PYTHON = '/usr/bin/python3';
/** The Debian packages the TCK needs on PYTHON (gRPC's and protobuf's for its imports; gRPC itself is not run). */
const DEBIAN_PACKAGES =
  'python3-pytest python3-pytest-timeout python3-httpx python3-jsonschema python3-grpcio python3-protobuf';
/** How long the agent may take to print its URL. */
const AGENT_START_MS = 60_000;
/** How long one test may run (pytest-timeout), and one transport's whole run. */
const TEST_TIMEOUT_S = 60;
const RUN_TIMEOUT_MS = 900_000;

/** The pytest.ini of the copy: the TCK's own settings (pyproject.toml) but its minimum pytest version. */
const PYTEST_INI = `[pytest]
testpaths = tests
markers =
    core: Core A2A protocol requirements
    must: MUST-level requirements (hard failure)
    should: SHOULD-level requirements (expected failure)
    may: MAY-level requirements (skip if not declared)
    grpc: gRPC transport specific tests
    jsonrpc: JSON-RPC transport specific tests
    http_json: HTTP+JSON transport specific tests
    streaming: Streaming-related tests
    integration: Integration tests (require running SUT)
`;

const children = new Set<ChildProcess>();

/** Ends a child this run started, and every process it started (its own process group). */
function stop(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of children) stop(child);
    process.exit(2);
  });

/** Starts the reference agent for one run; resolves with its URL once it prints it. */
function startAgent(log: string): Promise<{ url: string; child: ChildProcess }> {
  const out = createWriteStream(log);
  // The a2a package's `start` script (`exec node --import tsx src/reference-agent/serve.ts`), with the agent's options.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/reference-agent/serve.ts',
      '--port',
      '0',
      '--push-allow',
      '127.0.0.1',
      '--push-allow',
      'example.com',
    ],
    { cwd: path.join(ROOT, 'packages/a2a'), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      stop(child);
      reject(new TckHarnessError(`the reference agent ${why}; its output is in ${log}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${AGENT_START_MS / 1000} s`), AGENT_START_MS);
    child.stderr?.pipe(out);
    child.stdout?.on('data', (chunk: Buffer) => {
      out.write(chunk);
      if (seen.length < 4096) seen += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    });
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    child.on('exit', (code, signal) => fail(`ended before it listened (${signal ?? `exit ${code}`})`));
  });
}

/** Runs pytest over one transport in the copy; resolves with its exit code (null: it was ended). */
function runPytest(
  copy: string,
  url: string,
  transport: Transport,
  dir: string,
  level?: string,
): Promise<number | null> {
  const args = [
    '-m',
    'pytest',
    'tests/compatibility/',
    '-p',
    'tck_plumbing',
    '-p',
    'pytest_timeout',
    '-p',
    'no:cacheprovider',
    `--sut-host=${url}`,
    `--transport=${transport}`,
    '--webhook-host=127.0.0.1',
    `--timeout=${TEST_TIMEOUT_S}`,
    '--tb=short',
    '-rfE',
    `--harness-results=${path.join(dir, 'results.json')}`,
    `--compatibility-report=${path.join(dir, 'compatibility')}`,
    `--junitxml=${path.join(dir, 'junit.xml')}`,
    ...(level ? ['-m', level] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONPATH: HERE,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONNOUSERSITE: '1',
    // Only the plugins named above: whatever else this machine has installed for pytest stays out of the run.
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
  };
  delete env.PYTEST_ADDOPTS;
  const log = createWriteStream(path.join(dir, 'pytest.log'));
  const child = spawn(PYTHON, args, { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return new Promise((resolve) => {
    const timer = setTimeout(() => stop(child), RUN_TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve(code);
    });
  });
}

/** Whether PYTHON has the TCK's modules; the TckHarnessError names the apt-get command otherwise. */
function checkPython(): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = spawn(
      PYTHON,
      ['-c', 'import pytest, pytest_timeout, httpx, jsonschema, grpc, google.protobuf'],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PYTHONNOUSERSITE: '1' } },
    );
    let err = '';
    probe.stderr?.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    const missing = (why: string) =>
      reject(
        new TckHarnessError(
          `${PYTHON} cannot run the TCK (${why}): install its Debian packages, as root: apt-get install -y ` +
            `--no-install-recommends ${DEBIAN_PACKAGES} (or bash scripts/install-test-tools.sh with A2A_TCK_DIR set)`,
        ),
      );
    probe.on('error', (error) => missing(error.message));
    probe.on('exit', (code) =>
      code === 0 ? resolve() : missing(err.trim().split('\n').pop() ?? `exit ${code}`),
    );
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      transport: { type: 'string', default: TRANSPORTS.join(',') },
      level: { type: 'string' },
      expected: {
        type: 'string',
        default: path.join(ROOT, 'test/official-suites/a2a-tck.expected-failures.yaml'),
      },
      'any-commit': { type: 'boolean', default: false },
    },
  });
  const names = (values.transport ?? '').split(',').map((t) => t.trim());
  const transports = names.filter(isTransport);
  if (transports.length !== names.length)
    throw new TckHarnessError(
      `--transport takes ${TRANSPORTS.join(', ')} (comma-separated), not "${values.transport}"`,
    );
  if (values.level !== undefined && !['must', 'should', 'may'].includes(values.level))
    throw new TckHarnessError(`--level takes must, should or may, not "${values.level}"`);
  const tck = checkTckCheckout(process.env.A2A_TCK_DIR, values['any-commit']);
  const expected = parseExpectedTckFailures(readFileSync(values.expected, 'utf8'), values.expected);
  await checkPython();

  const out = path.resolve(values.out ?? mkdtempSync(path.join(tmpdir(), 'agentproto-a2a-tck-')));
  mkdirSync(out, { recursive: true });
  const copy = mkdtempSync(path.join(tmpdir(), 'agentproto-a2a-tck-copy-'));
  try {
    for (const folder of TCK_FOLDERS)
      cpSync(path.join(tck, folder), path.join(copy, folder), {
        recursive: true,
        filter: (source) => path.basename(source) !== '__pycache__',
      });
    writeFileSync(path.join(copy, 'pytest.ini'), PYTEST_INI);

    const runs: Partial<Record<Transport, { results: TransportResults; comparison: Comparison }>> = {};
    for (const transport of transports) {
      const dir = path.join(out, transport);
      mkdirSync(dir, { recursive: true });
      rmSync(path.join(dir, 'results.json'), { force: true });
      process.stderr.write(`a2a-tck: ${transport}: starting the reference agent\n`);
      const agent = await startAgent(path.join(dir, 'agent.log'));
      let code: number | null;
      try {
        process.stderr.write(
          `a2a-tck: ${transport}: running the TCK against ${agent.url} (log: ${dir}/pytest.log)\n`,
        );
        code = await runPytest(copy, agent.url, transport, dir, values.level);
      } finally {
        stop(agent.child);
        children.delete(agent.child);
      }
      const file = path.join(dir, 'results.json');
      if (code === null || code > 1 || !existsSync(file))
        throw new TckHarnessError(
          `pytest over ${transport} ${code === null ? 'was ended (timeout)' : `exited ${code}`}` +
            `${existsSync(file) ? '' : ' without its results'}; see ${dir}/pytest.log`,
        );
      const results = parseTransportResults(readFileSync(file, 'utf8'), file);
      runs[transport] = { results, comparison: compareWithExpected(results, expected[transport]) };
    }

    const done = transports.flatMap((t) => {
      const run = runs[t];
      return run ? [{ transport: t, ...run }] : [];
    });
    const summary = done.map((r) => summaryPart(r.transport, r.results, r.comparison));
    const clean = done.every((r) => asExpected(r.comparison));
    writeFileSync(
      path.join(out, 'results.json'),
      `${JSON.stringify(
        {
          tck: {
            source: 'a2aproject/a2a-tck',
            commit: TCK_COMMIT,
            dir: tck,
            anyCommit: values['any-commit'],
          },
          level: values.level ?? 'all',
          transports: Object.fromEntries(done.map((r) => [r.transport, { ...r.results, ...r.comparison }])),
          asExpected: clean,
        },
        null,
        1,
      )}\n`,
    );
    for (const r of done)
      for (const line of describeProblems(r.transport, r.comparison))
        process.stderr.write(`a2a-tck: ${line}\n`);
    process.stdout.write(`results: ${path.join(out, 'results.json')}\n`);
    process.stdout.write(`a2a-tck: ${summary.join('; ')}; ${clean ? 'as expected' : 'NOT as expected'}\n`);
    return clean ? 0 : 1;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  // Whatever went wrong, the run did not judge the agent: a harness problem (exit 2), and no process left behind.
  for (const child of children) stop(child);
  process.stderr.write(
    `a2a-tck: ${error instanceof TckHarnessError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 2;
}
