// The export README's copy-paste examples, run as a user would run them: the two Python ones (jsonschema with a
// referencing Registry over the per-type files' $ids, and with a RefResolver and a store for older jsonschema) and
// the Go one (gojsonschema over the draft-07 bundle) are taken from the README as written, and each must call every example valid and every counterexample invalid. The
// Python program runs once per type in two interpreters side by side (run_readme_example.py runs it as written, with
// each type's arguments, without paying Python's start 600 times).
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportToTemp } from '../support/export-dir.js';
import { GO_ENV, pythonWithReferencing, requireTool } from '../support/tools.js';
import { execFailure } from '../support/typed.js';

let dir = '';
/** Per protocol version and type: its examples and counterexamples, as paths inside the export. */
const groups: Array<{ version: string; type: string; examples: string[]; counterexamples: string[] }> = [];

/** The README's `nth` fenced code block in `language` (0: the first), exactly as written. */
function codeBlock(readme: string, language: string, nth = 0): string {
  const found = [...readme.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))][nth];
  if (!found?.[1]) throw new Error(`the export README has no ${language} example number ${nth + 1}`);
  return found[1];
}

beforeAll(async () => {
  ({ dir } = await exportToTemp('agentproto-readme-'));
  for (const protocol of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const version of readdirSync(path.join(dir, protocol.name))) {
      const at = (kind: string, type: string) => {
        try {
          return readdirSync(path.join(dir, protocol.name, version, kind, type))
            .filter((f) => f.endsWith('.json'))
            .map((f) => path.join(dir, protocol.name, version, kind, type, f));
        } catch {
          return [];
        }
      };
      const types = new Set<string>();
      for (const kind of ['examples', 'counterexamples']) {
        try {
          for (const t of readdirSync(path.join(dir, protocol.name, version, kind), { withFileTypes: true }))
            if (t.isDirectory()) types.add(t.name);
        } catch {}
      }
      for (const type of [...types].sort())
        groups.push({
          version: `${protocol.name}/${version}`,
          type,
          examples: at('examples', type),
          counterexamples: at('counterexamples', type),
        });
    }
  }
}, 120_000);

/** Runs one example program over a group's files; resolves each file's verdict as the program printed it. */
function verdicts(command: string, args: string[]): Promise<Map<string, string>> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // The program exits 1 when a document is invalid, and with anything else when it failed.
        if (error && error.code !== 1) reject(new Error(`${command} failed (${error.code}): ${stderr}`));
        else resolve(printedVerdicts(stdout));
      },
    ),
  );
}

/** Each file's verdict, from what an example program printed. */
function printedVerdicts(out: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^(\/.*\.json): (valid|invalid)$/.exec(line);
    if (m?.[1] && m[2]) found.set(m[1], m[2]);
  }
  return found;
}

function expectAgreement(found: Map<string, string>, group: (typeof groups)[number]) {
  const want = new Map<string, string>([
    ...group.examples.map((f) => [f, 'valid'] as const),
    ...group.counterexamples.map((f) => [f, 'invalid'] as const),
  ]);
  expect(Object.fromEntries(found)).toEqual(Object.fromEntries(want));
}

/**
 * Runs a Python example of the README (its `nth` python block) over every group, in two interpreters side by side,
 * and holds each group's verdicts to its examples and counterexamples.
 */
async function runPythonExample(python: string, nth: number, name: string): Promise<void> {
  const script = path.join(dir, name);
  writeFileSync(script, codeBlock(readFileSync(path.join(dir, 'README.md'), 'utf8'), 'python', nth));
  expect(groups.length).toBeGreaterThan(50);
  const runner = path.resolve(import.meta.dirname, 'run_readme_example.py');
  const halves = [groups.filter((_, i) => i % 2 === 0), groups.filter((_, i) => i % 2 === 1)];
  const runs = await Promise.all(
    halves.map((half, n) => {
      const list = path.join(dir, `${name}-groups-${n}.json`);
      writeFileSync(
        list,
        JSON.stringify(half.map((g) => [dir, `${g.version}/${g.type}`, ...g.examples, ...g.counterexamples])),
      );
      return new Promise<Array<{ code: number; stdout: string }>>((resolve, reject) =>
        execFile(
          python,
          // Warnings (a deprecated API the example uses on purpose) are not the example's failure.
          ['-W', 'ignore::DeprecationWarning', runner, script, list],
          { encoding: 'utf8', timeout: 600_000, maxBuffer: 256 * 1024 * 1024 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${python} failed: ${stderr}`)) : resolve(JSON.parse(stdout)),
        ),
      );
    }),
  );
  halves.forEach((half, n) => {
    half.forEach((g, i) => {
      const run = runs[n]?.[i];
      // The program exits 1 when a document is invalid, and with anything else when it failed.
      expect([0, 1], `${g.version}/${g.type}: ${run?.stdout}`).toContain(run?.code);
      expectAgreement(printedVerdicts(run?.stdout ?? ''), g);
    });
  });
}

const python = pythonWithReferencing();

describe('export README > Python example', () => {
  // Debian 12 packages jsonschema 4.10, without `referencing`; CI machines have a Python with it, and there a
  // missing one is a failure. Elsewhere the example is skipped, and this says why.
  if (!python && !process.env.CI)
    it.skip('needs a Python with jsonschema >= 4.18 and referencing (pip install jsonschema)', () => {});
  else
    it('calls every example valid and every counterexample invalid, for every type of every version', async () => {
      if (!python) throw new Error('no Python with jsonschema >= 4.18 and referencing on this CI machine');
      await runPythonExample(python, 0, 'validate.py');
    }, 600_000);
});

/**
 * A Python whose jsonschema is one the RefResolver example is for (4.5 to 4.17: Debian 12's 4.10 is in /usr/bin, which
 * scripts/install-test-tools.sh installs), or undefined.
 */
function pythonWithResolver(): string | undefined {
  const probe =
    'import importlib.metadata as m, sys; from jsonschema import Draft202012Validator, RefResolver; ' +
    "v = tuple(int(x) for x in m.version('jsonschema').split('.')[:2]); sys.exit(0 if (4, 5) <= v < (4, 18) else 1)";
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(python, ['-c', probe], { stdio: 'pipe', timeout: 30_000 });
      return python;
    } catch {}
  }
  return undefined;
}

describe('export README > Python example for older jsonschema (RefResolver)', () => {
  const legacy = pythonWithResolver();
  if (!legacy && !process.env.CI)
    it.skip('needs a Python with jsonschema 4.5 to 4.17 (Debian 12: apt-get install python3-jsonschema)', () => {});
  else
    it('calls every example valid and every counterexample invalid, for every type of every version', async () => {
      if (!legacy)
        throw new Error(
          'no Python with jsonschema 4.5 to 4.17 on this CI machine (bash scripts/install-test-tools.sh)',
        );
      await runPythonExample(legacy, 1, 'validate_resolver.py');
    }, 600_000);
});

describe('export README > Go example', () => {
  it('calls every example valid and every counterexample invalid, for every type of every version', async () => {
    requireTool('Go', 'go', ['version']);
    const source = path.join(dir, 'validate.go');
    writeFileSync(source, codeBlock(readFileSync(path.join(dir, 'README.md'), 'utf8'), 'go'));
    const binary = path.join(dir, 'validate-go');
    try {
      execFileSync('go', ['build', '-o', binary, source], { env: GO_ENV, stdio: 'pipe', timeout: 300_000 });
    } catch (error) {
      throw new Error(
        `the Go example does not build (is golang-github-xeipuuv-gojsonschema-dev installed? run \`bash scripts/install-test-tools.sh\`): ${execFailure(error).stderr}`,
      );
    }
    expect(groups.length).toBeGreaterThan(50);
    // One run per type, two at a time (each is a short process; one at a time left a core idle).
    const found = new Array<Map<string, string>>(groups.length);
    let next = 0;
    const runner = async () => {
      for (let i = next++; i < groups.length; i = next++) {
        const g = groups[i];
        if (g)
          found[i] = await verdicts(binary, [dir, g.version, g.type, ...g.examples, ...g.counterexamples]);
      }
    };
    await Promise.all([runner(), runner()]);
    for (const [i, g] of groups.entries()) expectAgreement(found[i] ?? new Map(), g);
  }, 600_000);
});
