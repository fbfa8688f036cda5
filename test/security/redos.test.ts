// Issue 12: no regex that can see request text may backtrack super-linearly. Every regex literal in hand-written
// TypeScript that ships or runs as a tool, every `pattern` of a schema, and the regexes behind the formats the schemas use are checked with
// recheck (an automaton-based ReDoS checker, with fuzzing where the automaton cannot decide).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import formatsModule from 'ajv-formats/dist/formats.js';
import { check, checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { prop, record } from '../support/typed.js';

const root = path.resolve(import.meta.dirname, '../..');

interface FoundRegex {
  where: string;
  source: string;
  flags: string;
}

function walk(dir: string, keep: (file: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'generated' || name === 'dist' || name.startsWith('.')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file, keep, out);
    else if (keep(file)) out.push(file);
  }
  return out;
}

/** Regex literals, and `new RegExp` / `RegExp` calls with literal arguments; dynamic ones are listed apart. */
function regexesInSource(file: string, text: string): { found: FoundRegex[]; dynamic: string[] } {
  // No parent links (a quarter of the parse): the walk goes down only, and each position is asked of the file itself.
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: FoundRegex[] = [];
  const dynamic: string[] = [];
  const where = (node: ts.Node) =>
    `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf('/');
      found.push({ where: where(node), source: node.text.slice(1, end), flags: node.text.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern && ts.isStringLiteralLike(pattern) && (!flags || ts.isStringLiteralLike(flags)))
        found.push({ where: where(node), source: pattern.text, flags: flags?.text ?? '' });
      else dynamic.push(where(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { found, dynamic };
}

/** Every `pattern` and `patternProperties` key in a parsed schema or OpenAPI document (ajv compiles them with `u`). */
function patternsIn(value: unknown, where: string, out: FoundRegex[] = []): FoundRegex[] {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) patternsIn(v, `${where}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'pattern' && typeof v === 'string')
        out.push({ where: `${where}/pattern`, source: v, flags: 'u' });
      if (key === 'patternProperties' && v !== null && typeof v === 'object')
        for (const p of Object.keys(v))
          out.push({ where: `${where}/patternProperties`, source: p, flags: 'u' });
      patternsIn(v, `${where}/${key}`, out);
    }
  }
  return out;
}

function formatsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) formatsIn(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === 'format' && typeof v === 'string') out.add(v);
      formatsIn(v, out);
    }
  return out;
}

/**
 * recheck's budgets, made independent of time: every wall-clock limit is off (`null`), so what bounds each stage is
 * recheck's own count of the characters its matcher reads (`attackLimit`, `incubationLimit`, `seedingLimit`, and the
 * NFA and pattern sizes that pick the algorithm), and the fuzzer's seed is fixed. The same regex then gets the same
 * verdict on a quiet machine and on two busy cores; only how long it takes changes. The recall validation, the one
 * stage that can only be bounded by time, stays off (its default).
 */
const DETERMINISTIC = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  randomSeed: 0,
} as const;

/** What recheck says of a regex: `safe`, or why not. */
function verdict(r: FoundRegex): string {
  return summarize(checkSync(r.source, r.flags, DETERMINISTIC));
}

/** Each distinct regex's verdict, asked once in the file (the same pattern in many files is one question). */
const asked = new Map<string, Promise<string>>();

/** The same, for many regexes at once: recheck's checker runs them side by side. */
async function verdicts(all: readonly FoundRegex[]): Promise<Array<FoundRegex & { verdict: string }>> {
  const ask = (r: FoundRegex) => {
    const key = `${r.flags}/${r.source}`;
    let answer = asked.get(key);
    if (!answer) {
      answer = check(r.source, r.flags, DETERMINISTIC).then(summarize);
      asked.set(key, answer);
    }
    return answer;
  };
  return Promise.all(all.map(async (r) => ({ ...r, verdict: await ask(r) })));
}

function summarize(result: ReturnType<typeof checkSync>): string {
  if (result.status === 'safe') return 'safe';
  if (result.status === 'vulnerable') return `vulnerable: ${result.complexity.summary}`;
  // Undecided is a failure, never a pass: with the budgets above it does not depend on the machine, so it names a
  // regex too large or too unusual for the checker, to be rewritten (or replaced by a scanner).
  return `undecided (${result.error.kind}): recheck cannot prove it linear; rewrite it`;
}

// What ships or runs as a tool; tests never see input from outside, and their regexes are left out.
const sources = [
  ...walk(path.join(root, 'packages'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts')),
  ...walk(path.join(root, 'scripts'), (f) => f.endsWith('.ts')),
];
// Each source file is parsed once, for both source tests: parsing is most of what they cost besides recheck.
let parsedSources: Array<ReturnType<typeof regexesInSource>> | undefined;
const sourceRegexes = () =>
  (parsedSources ??= sources.map((file) => regexesInSource(file, readFileSync(file, 'utf8'))));
const schemaFiles = walk(
  path.join(root, 'schemas'),
  (f) => /\.(json|ya?ml)$/.test(f) && !f.includes('examples'),
);
const parsedSchemas = schemaFiles.map((file) => {
  const text = readFileSync(file, 'utf8');
  return { file, value: file.endsWith('.json') ? JSON.parse(text) : parseYaml(text) };
});

describe('redos', () => {
  it('check > recheck finds the regexes issue 12 reported (the check can fail)', () => {
    expect(verdict({ where: 'agents', source: "weather in ([A-Za-z .'-]+?)\\??$", flags: 'i' })).toMatch(
      /^vulnerable/,
    );
    expect(verdict({ where: 'buy', source: '[.?!]+$', flags: '' })).toMatch(/^vulnerable/);
    // A lookbehind sends recheck to its fuzzer, whose budgets above are counts, not milliseconds: still found.
    expect(verdict({ where: 'fuzzed', source: '(?<!#)(a|a)*#', flags: 'g' })).toMatch(
      /^vulnerable: exponential/,
    );
    const planted = regexesInSource('planted.ts', 'const x = /(a+)+$/.test(s); new RegExp(name + suffix);');
    expect(planted.found.map(verdict)).toEqual([expect.stringMatching(/^vulnerable: exponential/)]);
    expect(planted.dynamic).toEqual(['planted.ts:1']);
  });

  // The verdicts do not depend on time; only how long they take does, so the time allowed is far above what two
  // busy cores need (about 7 s on a quiet machine).
  it('source > every regex literal in hand-written TypeScript is linear', { timeout: 300_000 }, async () => {
    const all = sourceRegexes().flatMap((parsed) => parsed.found);
    expect(all.length).toBeGreaterThan(50);
    expect((await verdicts(all)).filter((r) => r.verdict !== 'safe')).toEqual([]);
  });

  it('source > no regex is built from a variable', () => {
    const dynamic = sourceRegexes().flatMap((parsed) => parsed.dynamic);
    expect(dynamic).toEqual([]);
  });

  it('schemas > every pattern is linear', { timeout: 300_000 }, async () => {
    const all = parsedSchemas.flatMap(({ file, value }) => patternsIn(value, path.relative(root, file)));
    expect(all.length).toBeGreaterThan(3);
    expect((await verdicts(all)).filter((r) => r.verdict !== 'safe')).toEqual([]);
  });

  it('schemas > the regexes behind every format the schemas use are linear', {
    timeout: 300_000,
  }, async () => {
    const used = new Set(parsedSchemas.flatMap(({ value }) => [...formatsIn(value)]));
    const full = record(prop(formatsModule, 'fullFormats'), "ajv-formats' fullFormats");
    const regexes = [...used].flatMap((name) => {
      const f = full[name];
      const validate = prop(f, 'validate');
      const re = f instanceof RegExp ? f : validate instanceof RegExp ? validate : undefined;
      return re ? [{ where: `format ${name}`, source: re.source, flags: re.flags }] : [];
    });
    expect(regexes.map((r) => r.where)).toContain('format uri-reference');
    expect((await verdicts(regexes)).filter((r) => r.verdict !== 'safe')).toEqual([]);
  });
});
