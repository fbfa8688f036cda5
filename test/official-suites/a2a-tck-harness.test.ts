// The A2A TCK harness's own logic (scripts/a2a-tck/harness.ts), without the TCK: in the main stage, always. What
// makes a folder the pinned TCK, how the results file of its pytest plugin is read, and how a run is held against
// the expected failures both ways (a failure not listed, a listed test that did not fail). And the command itself,
// given no checkout, says what to set and exits 2. test/official-suites/a2a-tck.test.ts runs the TCK where a checkout
// is given.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  asExpected,
  checkTckCheckout,
  compareWithExpected,
  describeProblems,
  parseExpectedTckFailures,
  parseTransportResults,
  summaryPart,
  TCK_FINGERPRINT,
  TckHarnessError,
  type TransportResults,
  tckFingerprint,
} from '../../scripts/a2a-tck/harness.js';
import { ROOT } from '../support/spec-files.js';

const EXPECTED = path.join(ROOT, 'test/official-suites/a2a-tck.expected-failures.yaml');
const scratch = mkdtempSync(path.join(tmpdir(), 'agentproto-tck-harness-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder shaped as a TCK checkout (its three folders, one file each), under the scratch folder. */
function fakeCheckout(name: string): string {
  const dir = path.join(scratch, name);
  for (const folder of ['tck', 'tests/compatibility', 'specification'])
    mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, 'tck/__init__.py'), '');
  writeFileSync(path.join(dir, 'tests/compatibility/conftest.py'), '# conftest\n');
  writeFileSync(path.join(dir, 'specification/a2a.json'), '{}\n');
  return dir;
}

const A = 'tests/compatibility/a_test.py::test_a';
const B = 'tests/compatibility/b_test.py::test_b[jsonrpc]';
const C = 'tests/compatibility/c_test.py::TestC::test_c';

/** Results of a run: each id with its outcome. */
function results(outcomes: Record<string, string>): TransportResults {
  return parseTransportResults(
    JSON.stringify({
      exitstatus: 1,
      tests: Object.fromEntries(
        Object.entries(outcomes).map(([id, outcome]) => [id, { outcome, reason: `why ${id}` }]),
      ),
    }),
  );
}

describe('A2A TCK harness > the checkout', () => {
  it('none given > a harness error naming A2A_TCK_DIR and the commit to check out', () => {
    expect(() => checkTckCheckout(undefined)).toThrow(TckHarnessError);
    expect(() => checkTckCheckout('')).toThrow(
      /set A2A_TCK_DIR to a checkout of a2aproject\/a2a-tck.*357c4a8/,
    );
  });

  it('a folder that is not there, or not the TCK > says so', () => {
    expect(() => checkTckCheckout(path.join(scratch, 'nowhere'))).toThrow(/no such folder/);
    mkdirSync(path.join(scratch, 'empty'));
    expect(() => checkTckCheckout(path.join(scratch, 'empty'))).toThrow(
      /it has no tck, tests, specification/,
    );
  });

  it('another version of the TCK > refused, unless --any-commit lets it through', () => {
    const dir = fakeCheckout('other');
    expect(() => checkTckCheckout(dir)).toThrow(/its files differ from that commit's.*--any-commit/);
    expect(checkTckCheckout(dir, true)).toBe(dir);
  });

  it("the fingerprint > changes with any file's bytes or name, not with Python's caches", () => {
    const dir = fakeCheckout('fingerprint');
    const first = tckFingerprint(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(first).not.toBe(TCK_FINGERPRINT);
    mkdirSync(path.join(dir, 'tck/__pycache__'));
    writeFileSync(path.join(dir, 'tck/__pycache__/x.cpython-311.pyc'), 'cache');
    expect(tckFingerprint(dir)).toBe(first);
    writeFileSync(path.join(dir, 'specification/a2a.json'), '{ }\n');
    const second = tckFingerprint(dir);
    expect(second).not.toBe(first);
    rmSync(path.join(dir, 'specification/a2a.json'));
    writeFileSync(path.join(dir, 'specification/b2a.json'), '{ }\n');
    expect(tckFingerprint(dir)).not.toBe(second);
  });

  it('the command, given no checkout > prints what to set and exits 2', async () => {
    const env = { ...process.env };
    delete env.A2A_TCK_DIR;
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        path.join(ROOT, 'node_modules/.bin/tsx'),
        [path.join(ROOT, 'scripts/a2a-tck/run.ts')],
        { cwd: ROOT, env, timeout: 60_000, encoding: 'utf8' },
        (error, _stdout, err) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr: err }),
      ),
    );
    expect(stderr).toMatch(/^a2a-tck: no TCK checkout given: set A2A_TCK_DIR/m);
    expect(code).toBe(2);
  });
});

describe('A2A TCK harness > the results file', () => {
  it('each outcome read, with its reason', () => {
    const r = results({ [A]: 'passed', [B]: 'failed', [C]: 'xfailed' });
    expect(r.tests[B]).toEqual({ outcome: 'failed', reason: `why ${B}` });
    expect(Object.keys(r.tests)).toEqual([A, B, C]);
  });

  it('not JSON, no tests, or an outcome pytest does not have > a harness error', () => {
    expect(() => parseTransportResults('{', 'r.json')).toThrow(/r\.json is not JSON/);
    expect(() => parseTransportResults('{"exitstatus": 0}', 'r.json')).toThrow(/no tests object/);
    expect(() => results({ [A]: 'broken' })).toThrow(/outcome "broken" is none of passed, failed/);
  });
});

describe('A2A TCK harness > compared with the expected failures', () => {
  it('every failure listed and every listed test failing > as expected', () => {
    const c = compareWithExpected(results({ [A]: 'passed', [B]: 'failed' }), {
      [B]: 'the TCK (DECISIONS 1)',
    });
    expect(c).toEqual({ unexpected: [], stale: [], expected: [B] });
    expect(asExpected(c)).toBe(true);
  });

  it('a failure (or an error) the list does not name > unexpected, with its reason', () => {
    const c = compareWithExpected(results({ [A]: 'failed', [B]: 'error', [C]: 'xfailed' }), {});
    expect(c.unexpected.map((u) => [u.id, u.outcome])).toEqual([
      [A, 'failed'],
      [B, 'error'],
    ]);
    expect(asExpected(c)).toBe(false);
    expect(describeProblems('jsonrpc', c)[0]).toBe(`jsonrpc: unexpected failed: ${A}: why ${A}`);
  });

  it('a listed test that passed, was skipped or did not run > stale', () => {
    const listed = { [A]: 'x (README)', [B]: 'y (README)', [C]: 'z (README)' };
    const c = compareWithExpected(results({ [A]: 'passed', [B]: 'skipped' }), listed);
    expect(c.stale).toEqual([
      { id: A, outcome: 'passed' },
      { id: B, outcome: 'skipped' },
      { id: C, outcome: 'missing' },
    ]);
    expect(asExpected(c)).toBe(false);
    expect(describeProblems('http_json', c)).toContain(
      `http_json: listed as expected to fail, but not run: ${C}`,
    );
    expect(summaryPart('http_json', results({ [A]: 'passed', [B]: 'skipped' }), c)).toBe(
      'http_json: 1 passed, 0 failed (0 expected), 1 skipped; 3 stale',
    );
  });
});

describe('A2A TCK harness > the expected-failures file', () => {
  it("the project's file > read, both transports, each reason saying where it is recorded", () => {
    const expected = parseExpectedTckFailures(readFileSync(EXPECTED, 'utf8'));
    expect(Object.keys(expected.jsonrpc).length).toBeGreaterThan(0);
    expect(Object.keys(expected.http_json).length).toBeGreaterThan(0);
  });

  it('an unknown transport, a reason missing or not saying where it is recorded, an id not of the TCK > refused', () => {
    expect(() => parseExpectedTckFailures('grpc: {}\n')).toThrow(/\/grpc: not a transport the harness runs/);
    expect(() => parseExpectedTckFailures(`jsonrpc:\n  ${A}: ""\n`)).toThrow(/give the reason/);
    expect(() => parseExpectedTckFailures(`jsonrpc:\n  ${A}: the TCK is wrong\n`)).toThrow(
      /say where the reason is recorded/,
    );
    expect(() => parseExpectedTckFailures('jsonrpc:\n  test_a: x (README)\n')).toThrow(/not a pytest id/);
    expect(parseExpectedTckFailures(`http_json:\n  ${A}: x (DECISIONS 13)\n`).http_json).toEqual({
      [A]: 'x (DECISIONS 13)',
    });
  });
});
