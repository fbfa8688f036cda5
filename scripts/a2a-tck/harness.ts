// What the A2A TCK harness (scripts/a2a-tck/run.ts) decides, apart from the processes it runs: whether a folder is the
// official TCK at the pinned commit, what pytest's results file holds, and how a run compares with the list of
// failures expected to remain (test/official-suites/a2a-tck.expected-failures.yaml), both ways: a failure the list
// does not name is unexpected, and a listed test that did not fail is stale. test/official-suites/a2a-tck-harness.test.ts
// checks all of it without the TCK.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** The TCK's repository, branch and commit the harness runs (the 1.0 line). */
export const TCK_SOURCE = 'a2aproject/a2a-tck, branch 1.0-dev';

/** The pinned commit of the TCK. */
export const TCK_COMMIT = '357c4a87afa2818731590647cccbea31c31733a2';

/** The folders of a TCK checkout the harness copies and runs: its library, its tests and its specification. */
export const TCK_FOLDERS = ['tck', 'tests', 'specification'] as const;

/**
 * The fingerprint (see tckFingerprint) of TCK_FOLDERS at TCK_COMMIT. A checkout whose files give another is not the
 * pinned TCK, whatever its git says.
 */
export const TCK_FINGERPRINT = '8b91c269ec0f90295cd29c936b9b1c8a92f93a65c1e918c5ed01e60287d94f3d';

/** The transports the harness runs the TCK over, as its `--transport` names them. */
export const TRANSPORTS = ['jsonrpc', 'http_json'] as const;

/** One transport the harness runs. */
export type Transport = (typeof TRANSPORTS)[number];

/** Whether a name is one of TRANSPORTS. */
export function isTransport(name: string): name is Transport {
  return TRANSPORTS.some((t) => t === name);
}

/** What pytest made of one test: the TCK turns unmet SHOULD requirements into xfail. */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'xfailed' | 'xpassed' | 'error';

const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'skipped', 'xfailed', 'xpassed', 'error'];

/** A harness problem (no TCK, another commit, Python packages missing, an agent that does not start): exit 2. */
export class TckHarnessError extends Error {
  override name = 'TckHarnessError';
}

/**
 * The fingerprint of a TCK checkout: SHA-256 over each file of TCK_FOLDERS (by path, sorted; Python's caches
 * left out), as `<path>\0<SHA-256 of its bytes>\n`. A plain copy of the files (no .git) is recognized as well as a
 * clone.
 */
export function tckFingerprint(dir: string): string {
  const files: string[] = [];
  for (const folder of TCK_FOLDERS) {
    const root = path.join(dir, folder);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const parts = entry.split(path.sep);
      if (parts.includes('__pycache__') || entry.endsWith('.pyc')) continue;
      if (statSync(path.join(root, entry)).isFile()) files.push([folder, ...parts].join('/'));
    }
  }
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash.update(
      `${file}\0${createHash('sha256')
        .update(readFileSync(path.join(dir, file)))
        .digest('hex')}\n`,
    );
  return hash.digest('hex');
}

/**
 * Checks that `dir` (A2A_TCK_DIR) holds the TCK at the pinned commit; `anyCommit` lets another version through.
 * Throws TckHarnessError saying what is wrong and how to get the right one.
 */
export function checkTckCheckout(dir: string | undefined, anyCommit = false): string {
  const fetchIt = `git clone https://github.com/a2aproject/a2a-tck && git -C a2a-tck checkout ${TCK_COMMIT.slice(0, 7)}`;
  if (dir === undefined || dir.trim() === '')
    throw new TckHarnessError(
      `no TCK checkout given: set A2A_TCK_DIR to a checkout of ${TCK_SOURCE} at ${TCK_COMMIT.slice(0, 7)} (${fetchIt})`,
    );
  const resolved = path.resolve(dir);
  const missing = TCK_FOLDERS.filter((f) => !existsSync(path.join(resolved, f)));
  if (!existsSync(resolved) || missing.length > 0)
    throw new TckHarnessError(
      `A2A_TCK_DIR=${dir} is not a checkout of ${TCK_SOURCE}: ${
        existsSync(resolved) ? `it has no ${missing.join(', ')}` : 'no such folder'
      } (${fetchIt})`,
    );
  if (!anyCommit && !existsSync(path.join(resolved, 'tests', 'compatibility', 'conftest.py')))
    throw new TckHarnessError(`A2A_TCK_DIR=${dir} has no tests/compatibility/conftest.py: not the 1.0 line`);
  if (!anyCommit && tckFingerprint(resolved) !== TCK_FINGERPRINT)
    throw new TckHarnessError(
      `A2A_TCK_DIR=${dir} is not ${TCK_SOURCE} at ${TCK_COMMIT.slice(0, 7)}: its files differ from that commit's` +
        ` (check it out there, or pass --any-commit to run it anyway)`,
    );
  return resolved;
}

/** One test's outcome, with pytest's short reason (a failure's message, a skip's or xfail's reason). */
export interface TestResult {
  outcome: Outcome;
  reason: string;
}

/** What the harness's pytest plugin (tck_plumbing.py) writes for one transport's run. */
export interface TransportResults {
  /** pytest's exit status: 0 all passed, 1 some failed, 2 or more a problem of the run itself. */
  exitstatus: number;
  /** By pytest's test id, in the order they ran. */
  tests: Record<string, TestResult>;
}

/** Reads a results file of tck_plumbing.py; anything else is a TckHarnessError naming what is wrong. */
export function parseTransportResults(text: string, what = 'the results file'): TransportResults {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TckHarnessError(
      `${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TckHarnessError(`${what} is not an object`);
  const exitstatus: unknown = Reflect.get(value, 'exitstatus');
  const tests: unknown = Reflect.get(value, 'tests');
  if (typeof exitstatus !== 'number') throw new TckHarnessError(`${what} has no exitstatus`);
  if (typeof tests !== 'object' || tests === null || Array.isArray(tests))
    throw new TckHarnessError(`${what} has no tests object`);
  const out: Record<string, TestResult> = {};
  for (const [id, entry] of Object.entries(tests)) {
    const outcome: unknown =
      typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'outcome') : undefined;
    const reason: unknown =
      typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'reason') : undefined;
    const known = OUTCOMES.find((o) => o === outcome);
    if (known === undefined)
      throw new TckHarnessError(
        `${what}: ${id}: the outcome ${JSON.stringify(outcome)} is none of ${OUTCOMES.join(', ')}`,
      );
    out[id] = { outcome: known, reason: typeof reason === 'string' ? reason : '' };
  }
  return { exitstatus, tests: out };
}

/** How many tests ended each way. */
export function countOutcomes(results: TransportResults): Record<Outcome, number> {
  const counts: Record<Outcome, number> = {
    passed: 0,
    failed: 0,
    skipped: 0,
    xfailed: 0,
    xpassed: 0,
    error: 0,
  };
  for (const { outcome } of Object.values(results.tests)) counts[outcome] += 1;
  return counts;
}

/** Failures expected to remain, per transport: test id → why it fails and where that is recorded. */
export type ExpectedTckFailures = Record<Transport, Record<string, string>>;

/**
 * Reads the expected-failures file: a mapping of transport (`jsonrpc`, `http_json`) to a mapping of pytest test id
 * to its reason. Each reason must say where it is recorded (a DECISIONS.md entry or the README).
 */
export function parseExpectedTckFailures(
  text: string,
  file = 'a2a-tck.expected-failures.yaml',
): ExpectedTckFailures {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new TckHarnessError(`${file}: not YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const out: ExpectedTckFailures = { jsonrpc: {}, http_json: {} };
  if (value === null || value === undefined) return out;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new TckHarnessError(
      `${file}: expected a mapping of transport (${TRANSPORTS.join(', ')}) to test ids`,
    );
  for (const [transport, tests] of Object.entries(value)) {
    if (!isTransport(transport))
      throw new TckHarnessError(
        `${file}: /${transport}: not a transport the harness runs (${TRANSPORTS.join(', ')})`,
      );
    if (tests === null) continue;
    if (typeof tests !== 'object' || Array.isArray(tests))
      throw new TckHarnessError(`${file}: /${transport}: expected a mapping of test id to reason`);
    for (const [id, reason] of Object.entries(tests)) {
      if (!id.startsWith('tests/compatibility/') || !id.includes('::'))
        throw new TckHarnessError(`${file}: /${transport}/${id}: not a pytest id under tests/compatibility/`);
      if (typeof reason !== 'string' || reason.trim() === '')
        throw new TckHarnessError(`${file}: /${transport}/${id}: give the reason it is expected to fail`);
      if (!/DECISIONS \d+|README/.test(reason))
        throw new TckHarnessError(
          `${file}: /${transport}/${id}: say where the reason is recorded (DECISIONS <entry> or README)`,
        );
      out[transport][id] = reason;
    }
  }
  return out;
}

/** A run held against the expected failures of its transport. */
export interface Comparison {
  /** Tests that failed (or errored) though the list does not name them, with pytest's reason. */
  unexpected: { id: string; outcome: Outcome; reason: string }[];
  /** Listed tests that did not fail: passed, skipped, or not run at all (`missing`). */
  stale: { id: string; outcome: Outcome | 'missing' }[];
  /** Listed tests that failed, as listed. */
  expected: string[];
}

/** Holds one transport's results against its expected failures, both ways. */
export function compareWithExpected(results: TransportResults, expected: Record<string, string>): Comparison {
  const unexpected: Comparison['unexpected'] = [];
  const expectedFailed: string[] = [];
  for (const [id, { outcome, reason }] of Object.entries(results.tests)) {
    if (outcome !== 'failed' && outcome !== 'error') continue;
    if (expected[id] === undefined) unexpected.push({ id, outcome, reason });
    else expectedFailed.push(id);
  }
  const stale: Comparison['stale'] = [];
  for (const id of Object.keys(expected)) {
    const outcome = results.tests[id]?.outcome;
    if (outcome !== 'failed' && outcome !== 'error') stale.push({ id, outcome: outcome ?? 'missing' });
  }
  return { unexpected, stale, expected: expectedFailed };
}

/** Whether a comparison is clean: every failure listed, every listed test failing. */
export function asExpected(comparison: Comparison): boolean {
  return comparison.unexpected.length === 0 && comparison.stale.length === 0;
}

/** One transport's line of the summary: `jsonrpc: 90 passed, 5 failed (5 expected), 1 xfailed, 169 skipped`. */
export function summaryPart(transport: Transport, results: TransportResults, comparison: Comparison): string {
  const counts = countOutcomes(results);
  const shown = OUTCOMES.filter((o) => o === 'passed' || o === 'failed' || counts[o] > 0).map((o) =>
    o === 'failed' ? `${counts.failed} failed (${comparison.expected.length} expected)` : `${counts[o]} ${o}`,
  );
  const problems = [
    ...(comparison.unexpected.length > 0 ? [`${comparison.unexpected.length} unexpected`] : []),
    ...(comparison.stale.length > 0 ? [`${comparison.stale.length} stale`] : []),
  ];
  return `${transport}: ${shown.join(', ')}${problems.length > 0 ? `; ${problems.join(', ')}` : ''}`;
}

/** What a comparison found wrong, one line per test, for the terminal and for a test's message. */
export function describeProblems(transport: Transport, comparison: Comparison): string[] {
  return [
    ...comparison.unexpected.map(
      (u) => `${transport}: unexpected ${u.outcome}: ${u.id}: ${u.reason || '(no reason given)'}`,
    ),
    ...comparison.stale.map(
      (s) =>
        `${transport}: listed as expected to fail, but ${s.outcome === 'missing' ? 'not run' : s.outcome}: ${s.id}`,
    ),
  ];
}
