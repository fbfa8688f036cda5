import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CachedGenerateResult, generateCached } from './generate-cached.js';
import { PIECES_DIR } from './piece-memo.js';
import { planRun, runKey, topLevelStrings } from './run-plan.js';
import { pruneUnitRecords, RUN_CACHE_DIR, readUnitRecord, saveUnitRecord } from './unit-records.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * A scratch copy of what a fixie run reads: every protocol's manifest and top-level files with fixie's schemas, the packages (sources and manifests:
 * no installs, builds or published schema copies) and the lockfile.
 */
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-run-cache-'));
  const schemas = path.join(ROOT, 'schemas');
  cpSync(schemas, path.join(dir, 'schemas'), {
    recursive: true,
    filter: (from) => {
      const rel = path.relative(schemas, from).split(path.sep);
      return rel.length <= 1 || rel[0] === 'fixie' || (rel.length === 2 && statSync(from).isFile());
    },
  });
  cpSync(path.join(ROOT, 'pnpm-lock.yaml'), path.join(dir, 'pnpm-lock.yaml'));
  for (const pkg of readdirSync(path.join(ROOT, 'packages')))
    cpSync(path.join(ROOT, 'packages', pkg), path.join(dir, 'packages', pkg), {
      recursive: true,
      filter: (from) =>
        !/^[^\\/]+[\\/](node_modules|dist|test|schemas)([\\/]|$)/.test(
          path.relative(path.join(ROOT, 'packages'), from),
        ),
    });
  return dir;
}

// Runs here make the type files in this process (`parallel: false`): what is cached does not depend on where they are
// made, and a second process started per run cost seconds each (types-process.test.ts covers that process).
describe('generate > the cache of each part of a run', () => {
  // The first run over a scratch copy renders every part (no cache yet): made once, as two tests below begin from it.
  // The first test asserts what it returned and goes on in that folder; the other starts in a copy of the folder made
  // right after it, records and all (a copy of the copy: files edited in the repository meanwhile do not reach it).
  let base = '';
  let warm = '';
  let first: CachedGenerateResult | undefined;
  beforeAll(async () => {
    base = scratch();
    first = await generateCached({ root: base, protocols: ['fixie'], check: true, parallel: false });
    warm = mkdtempSync(path.join(tmpdir(), 'agentproto-run-cache-'));
    cpSync(base, warm, { recursive: true });
  }, 120_000);

  it('unchanged inputs reuse the last output; an edited output is still found; a changed schema renders its version only', async () => {
    const root = base;
    const only = ['fixie'];
    const run = (more: { check?: boolean; cache?: boolean } = {}) =>
      generateCached({ root, protocols: only, check: true, parallel: false, ...more });
    const generated = path.join(root, 'packages/fixie/src/generated/1.0/index.ts');
    const original = readFileSync(generated, 'utf8');

    const all = ['version fixie@1.0', 'package fixie', 'registry'];
    expect(first).toEqual({ stale: [], cached: false, rendered: all });
    expect(await run()).toEqual({ stale: [], cached: true, rendered: [] });

    // A generated file edited by hand is stale, though nothing was regenerated; generate puts it back.
    writeFileSync(generated, `${original}// edited\n`);
    expect(await run()).toEqual({
      stale: ['packages/fixie/src/generated/1.0/index.ts'],
      cached: true,
      rendered: [],
    });
    expect(await run({ check: false })).toMatchObject({ cached: true });
    expect(readFileSync(generated, 'utf8')).toBe(original);

    // --no-cache runs the pipeline whatever the cache holds.
    expect(await run({ cache: false })).toEqual({ stale: [], cached: false, rendered: all });

    // A schema changed: its version's part is rendered again, and the change shows; the package and the registry,
    // which read no schema, come from the cache.
    const schema = path.join(root, 'schemas/fixie/1.0/AgentError.schema.json');
    const text = readFileSync(schema, 'utf8');
    const edited = text.replace(/"description": "/, '"description": "Edited. ');
    expect(edited).not.toBe(text);
    writeFileSync(schema, edited);
    const pieces = () => readdirSync(path.join(root, RUN_CACHE_DIR, PIECES_DIR)).length;
    const piecesBefore = pieces();
    const afterSchema = await run();
    expect(afterSchema).toMatchObject({ cached: false, rendered: ['version fixie@1.0'] });
    expect(afterSchema.stale.length).toBeGreaterThan(0);
    // Only prose changed: the version's message validators came from the cache (piece-memo.ts: no piece was added),
    // and what the run made is what the whole pipeline makes without the cache.
    expect(pieces()).toBe(piecesBefore);
    await run({ check: false });
    expect(await run({ cache: false })).toEqual({ stale: [], cached: false, rendered: all });
    // A change to what a message may be is no prose: the validators are made again, and show it.
    writeFileSync(schema, edited.replace('"type": "string"', '"type": "string", "minLength": 2'));
    const afterRule = await run();
    expect(afterRule.stale).toContain('packages/fixie/src/generated/1.0/validators.js');
    expect(pieces()).toBe(piecesBefore + 1);
    await run({ check: false });
    expect(await run({ cache: false })).toEqual({ stale: [], cached: false, rendered: all });
    // The manifest is read by every part: every key changes (the plan alone tells, without rendering again).
    const keys = () => new Map(planRun(root, only).units.map((u) => [u.id, u.key]));
    const before = keys();
    const manifest = path.join(root, 'schemas/fixie/protocol.yaml');
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}# edited\n`);
    const after = keys();
    expect([...after.keys()]).toEqual(all);
    for (const id of all) expect(after.get(id), id).not.toBe(before.get(id));
  }, 120_000);

  it("the key covers the generator's sources, the lockfile, the packages' files and the protocols asked for", async () => {
    // Each key is compared with the one before it, whatever the folder held: the first test's folder serves.
    const root = base;
    const before = runKey(root, ['fixie']);
    expect(runKey(root, ['fixie'])).toBe(before);
    expect(runKey(root)).not.toBe(before);
    const changes: Array<[string, () => void]> = [
      [
        'a generator source',
        () => writeFileSync(path.join(root, 'packages/codegen/src/cache/extra.ts'), 'export {};\n'),
      ],
      ['the lockfile', () => writeFileSync(path.join(root, 'pnpm-lock.yaml'), '# changed\n')],
      ['a module a manifest may name', () => writeFileSync(path.join(root, 'packages/fixie/src/new.ts'), '')],
      ['a package manifest', () => writeFileSync(path.join(root, 'packages/fixie/package.json'), '{}')],
    ];
    let last = before;
    for (const [what, change] of changes) {
      change();
      const now = runKey(root, ['fixie']);
      expect(now, what).not.toBe(last);
      last = now;
    }
    // What the generator writes is not an input: regenerated files leave the key as it was.
    writeFileSync(path.join(root, 'packages/fixie/src/generated/1.0/index.ts'), '');
    expect(runKey(root, ['fixie'])).toBe(last);
  });

  it('a runtime module the generator loads, edited, is a miss; one it does not load leaves the key', async () => {
    const root = warm;
    const only = ['fixie'];
    const run = () => generateCached({ root, protocols: only, check: true, parallel: false });
    const edit = (file: string) => {
      const full = path.join(root, file);
      writeFileSync(full, `${readFileSync(full, 'utf8')}// edited\n`);
    };
    // The first run's records, in another folder with the same files: a record is found by what the files hold, not
    // by where they are. (That a first run is a miss, the test above shows.)
    expect(await run()).toEqual({ stale: [], cached: true, rendered: [] });
    // Same file names, new contents: only the files' contents can tell the key. The generator is in every part's key.
    edit('packages/runtime/src/translate/translate.ts');
    expect(await run()).toEqual({
      stale: [],
      cached: false,
      rendered: ['version fixie@1.0', 'package fixie', 'registry'],
    });
    expect(await run()).toEqual({ stale: [], cached: true, rendered: [] });

    const runtime: Array<[string, string]> = [
      ['runtime > an entry codegen imports (@agentproto/runtime/locate)', 'packages/runtime/src/locate.ts'],
      [
        'runtime > the module that entry re-exports (the locating parsers)',
        'packages/runtime/src/text/locate.ts',
      ],
      [
        'runtime > compilePathTemplate, through runtime/translate',
        'packages/runtime/src/http/path-template.ts',
      ],
      ['runtime > findShapeProblem, through the package root', 'packages/runtime/src/body/value-shape.ts'],
    ];
    let last = runKey(root, only);
    for (const [what, file] of runtime) {
      edit(file);
      const now = runKey(root, only);
      expect(now, what).not.toBe(last);
      last = now;
    }
    // A runtime test is no module of the generator's: editing it is no reason to run again.
    edit('packages/runtime/src/serve-args.test.ts');
    expect(runKey(root, only)).toBe(last);
  }, 120_000);

  it('the stamp answers a check on a fresh clone (no run cache) by hashing the files; other inputs run the pipeline', async () => {
    const root = scratch();
    const stamp = 'packages/fixie/src/generated/stamp.json';
    const run = (more: { check?: boolean } = {}) =>
      generateCached({
        root,
        protocols: ['fixie'],
        stamp,
        check: true,
        parallel: false,
        ...more,
      });
    const cacheDir = path.join(root, RUN_CACHE_DIR);
    const fresh = () => rmSync(cacheDir, { recursive: true, force: true });
    // No stamp yet: the check runs the generator and finds the stamp missing; generate writes it.
    expect(await run()).toMatchObject({
      stale: [`${stamp} (missing)`],
      cached: false,
    });
    expect((await run({ check: false })).stale).toEqual([`${stamp} (missing)`]);
    // As on a fresh clone, no run cache, while the stamp answers; the records are put back before generate runs again
    // (a check the stamp answers reads and writes no record), so that run takes every part from them.
    const aside = `${cacheDir}-aside`;
    renameSync(cacheDir, aside);
    expect(await run()).toEqual({ stale: [], cached: true, rendered: [], stamped: true });

    // A generated file edited by hand, and a file no run writes, are found from the stamp alone.
    const generated = path.join(root, 'packages/fixie/src/generated/1.0/index.ts');
    const original = readFileSync(generated, 'utf8');
    writeFileSync(generated, `${original}// edited\n`);
    writeFileSync(path.join(root, 'packages/fixie/src/generated/extra.ts'), '');
    expect(await run()).toEqual({
      stale: [
        'packages/fixie/src/generated/1.0/index.ts',
        'packages/fixie/src/generated/extra.ts (no longer generated)',
      ],
      cached: true,
      rendered: [],
      stamped: true,
    });
    renameSync(aside, cacheDir);
    expect(await run({ check: false })).toMatchObject({ cached: true });
    expect(readFileSync(generated, 'utf8')).toBe(original);
    fresh();
    expect(await run()).toEqual({ stale: [], cached: true, rendered: [], stamped: true });

    // A stamp naming other inputs is never drift itself: the check runs the pipeline, passes, and says so.
    const text = readFileSync(path.join(root, stamp), 'utf8');
    writeFileSync(path.join(root, stamp), text.replace(/"key": "[0-9a-f]+"/, '"key": "other"'));
    fresh();
    expect(await run()).toEqual({
      stale: [],
      cached: false,
      rendered: ['version fixie@1.0', 'package fixie', 'registry'],
      stampOutdated: stamp,
    });
    // An input changed and not regenerated: the stamp does not answer, the pipeline finds the change.
    await run({ check: false });
    const schema = path.join(root, 'schemas/fixie/1.0/AgentError.schema.json');
    writeFileSync(
      schema,
      readFileSync(schema, 'utf8').replace(/"description": "/, '"description": "Edited. '),
    );
    fresh();
    const changed = await run();
    expect(changed).toMatchObject({ cached: false, stampOutdated: stamp });
    expect(changed.stamped).toBeUndefined();
    expect(changed.stale.length).toBeGreaterThan(0);
  }, 120_000);

  it('a record that is not one of the part asked for is a miss, not a failure; the oldest records go first', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'agentproto-run-cache-'));
    const planned = { unit: { kind: 'registry' } as const, id: 'registry', key: 'k' };
    const output = { dirs: ['d'], files: [{ path: 'd/f', content: 'x' }] };
    await saveUnitRecord(root, planned, output);
    expect(await readUnitRecord(root, planned)).toEqual(output);
    expect(await readUnitRecord(root, { ...planned, key: 'other' })).toBeUndefined();
    expect(await readUnitRecord(root, { ...planned, id: 'package fixie' })).toBeUndefined();
    for (const bad of [
      '{"unit":"registry","key": 1',
      '{"unit":"registry","key":"k","dirs":[1],"files":[]}',
      '{"unit":"registry","key":"k","dirs":[],"files":[{}]}',
    ]) {
      writeFileSync(path.join(root, RUN_CACHE_DIR, 'units', 'k.json'), bad);
      expect(await readUnitRecord(root, planned)).toBeUndefined();
    }
    // Three records, the first used last: pruning to two drops the one used longest ago.
    const keys = ['a', 'b', 'c'];
    for (const [i, key] of keys.entries()) {
      await saveUnitRecord(root, { ...planned, key }, output);
      const file = path.join(root, RUN_CACHE_DIR, 'units', `${key}.json`);
      utimesSync(file, new Date(1000 * (i + 1)), new Date(1000 * (i + 1)));
    }
    rmSync(path.join(root, RUN_CACHE_DIR, 'units', 'k.json'));
    expect(await readUnitRecord(root, { ...planned, key: 'a' })).toEqual(output);
    await pruneUnitRecords(root, 2);
    expect(readdirSync(path.join(root, RUN_CACHE_DIR, 'units')).sort()).toEqual(['a.json', 'c.json']);
  });

  it.each([
    [
      'plain keys > their values, the rest not parsed',
      'extends: "0.1"\nrequirements:\n  - id: x\n',
      { extends: '0.1' },
    ],
    ['an absent key > none', 'requirements: []\n', {}],
    ['a comment after the value > the value', 'extends: v1 # the base\n', { extends: 'v1' }],
    ['flow style > not read', '{ extends: v1 }\n', undefined],
    ['a quoted key > not read', '"extends": v1\n', undefined],
    ['a value on the next line > not read', 'extends:\n  v1\n', undefined],
    ['a plain value going on over lines > not read', 'extends: v1\n  more\n', undefined],
    ['a key twice > not read', 'extends: a\nextends: b\n', undefined],
    ['a value that is no string > not read', 'extends: 1.0\n', undefined],
    ['several documents > not read', 'extends: a\n---\nextends: b\n', undefined],
  ])('plan > top-level values: %s', (_name, given, want) => {
    const read = topLevelStrings(Buffer.from(given), ['extends']);
    expect(read && Object.fromEntries(read)).toEqual(want);
  });
});

describe('generate > the plan follows what requirements files extend', () => {
  // AgentScope 1.1's requirements.yaml and client-requirements.yaml both extend 0.1's: an edit to either base file
  // changes 1.1's key, though 1.1's folder is unchanged (the plan reads the schemas alone; no package is needed).
  it.each(['requirements.yaml', 'client-requirements.yaml'])(
    "an edit to 0.1's %s changes 1.1's key",
    (name) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-plan-'));
      try {
        cpSync(path.join(ROOT, 'schemas/agentscope'), path.join(dir, 'schemas/agentscope'), {
          recursive: true,
        });
        const key = () =>
          planRun(dir, ['agentscope']).units.find((u) => u.id === 'version agentscope@1.1')?.key;
        const before = key();
        expect(before).toBeDefined();
        const base = path.join(dir, 'schemas/agentscope/0.1', name);
        writeFileSync(base, `${readFileSync(base, 'utf8')}# edited\n`);
        expect(key()).not.toBe(before);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
