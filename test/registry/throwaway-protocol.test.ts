// Issue 14: which protocols and versions exist is data (schemas/<id>/protocol.yaml), and the registry every command
// uses is generated from it. The proof: in a copy of the repository, a throwaway protocol — Fixie's schemas and
// package copied under a new id, with only data changed (manifests, package.json, the schemas' $ids) — is known to `generate`, `validate`,
// `export` and `new` without a line of code edited.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentprotoIn, copyRepository } from '../support/copy-repository.js';
import { prop, record } from '../support/typed.js';

const ID = 'fixie-copy';
const PACKAGE = `@agentproto/${ID}`;
let copy: string;

/** Edits a JSON file of the copy. */
function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = record(JSON.parse(readFileSync(file, 'utf8')), file);
  edit(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Runs the copy's agentproto command in the copy. */
function agentproto(args: string[]): { code: number; out: string } {
  return agentprotoIn(copy, args);
}

beforeAll(() => {
  copy = copyRepository('agentproto-throwaway-');
  // The protocol: Fixie's schemas under a new id; only its manifest's id and package change.
  cpSync(path.join(copy, 'schemas/fixie'), path.join(copy, 'schemas', ID), { recursive: true });
  const manifest = path.join(copy, 'schemas', ID, 'protocol.yaml');
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8')
      .replace(/^id: fixie$/m, `id: ${ID}`)
      .replace(/^package: "@agentproto\/fixie"$/m, `package: "${PACKAGE}"`),
  );
  // Each schema's $id names its protocol: the copies' name the new one.
  const version = path.join(copy, 'schemas', ID, '1.0');
  for (const name of readdirSync(version).filter((n) => n.endsWith('.schema.json'))) {
    const file = path.join(version, name);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('/schemas/fixie/', `/schemas/${ID}/`));
  }
  // Its package: Fixie's, renamed in package.json, with nothing generated yet.
  cpSync(path.join(copy, 'packages/fixie'), path.join(copy, 'packages', ID), {
    recursive: true,
    verbatimSymlinks: true,
  });
  rmSync(path.join(copy, 'packages', ID, 'src/generated'), { recursive: true });
  editJson(path.join(copy, 'packages', ID, 'package.json'), (p) => {
    p.name = PACKAGE;
  });
  // What `pnpm install` does once the new package is named beside the others: link it for the registry (whose optional
  // peer it is, as every protocol package) and the CLI.
  for (const consumer of ['registry', 'cli']) {
    editJson(path.join(copy, 'packages', consumer, 'package.json'), (p) => {
      const field = consumer === 'cli' ? 'dependencies' : 'peerDependencies';
      record(p[field], field)[PACKAGE] = 'workspace:^';
    });
    symlinkSync(`../../../${ID}`, path.join(copy, 'packages', consumer, 'node_modules/@agentproto', ID));
  }
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('14 > a protocol added as data only', () => {
  it('generate > writes its code and lists it in the registry', () => {
    const run = agentproto(['generate']);
    expect(run.code, run.out).toBe(0);
    expect(existsSync(path.join(copy, 'packages', ID, 'src/generated/1.0/binding.ts'))).toBe(true);
    const registry = readFileSync(path.join(copy, 'packages/registry/src/generated/registry.ts'), 'utf8');
    expect(registry).toContain(`"${ID}": {`);
    expect(registry).toContain(`import("${PACKAGE}/1.0/binding")`);
    expect(agentproto(['generate', '--check']).code).toBe(0);
  }, 180_000);

  it('validate > checks its messages, document rules included', () => {
    const examples = path.join(copy, 'schemas', ID, '1.0/examples/AgentMetadata');
    const good = agentproto(['validate', examples, '--protocol', ID, '--type', 'AgentMetadata']);
    expect(good.code, good.out).toBe(0);
    const bad = path.join(copy, 'bad-few-shot.json');
    writeFileSync(bad, JSON.stringify('Q: no answer here'));
    const refused = agentproto(['validate', bad, '--protocol', `${ID}@1.0`, '--type', 'FewShot']);
    expect(refused.code, refused.out).toBe(1);
  }, 120_000);

  it('export > writes its schemas, with its row in the README', () => {
    const out = path.join(copy, 'export');
    const run = agentproto(['export', out]);
    expect(run.code, run.out).toBe(0);
    expect(existsSync(path.join(out, ID, '1.0/bundle.schema.json'))).toBe(true);
    expect(readFileSync(path.join(out, 'README.md'), 'utf8')).toContain(`| \`${ID}/1.0/\` |`);
  }, 120_000);

  it('new > writes a project from its template', () => {
    const project = path.join(copy, 'agent');
    const run = agentproto(['new', project, '--protocol', ID, '--registry']);
    expect(run.code, run.out).toBe(0);
    const pkg: unknown = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    expect(Object.keys(record(prop(pkg, 'dependencies'), 'dependencies'))).toContain(PACKAGE);
    expect(readFileSync(path.join(project, 'src/agent.ts'), 'utf8')).toContain('createCodeShotAgent');
    expect(readFileSync(path.join(project, 'test/conformance.test.ts'), 'utf8')).toContain(`${ID}@1.0`);
  }, 120_000);

  it('help > lists it with the others', () => {
    expect(agentproto(['validate', '--help']).out).toContain(ID);
  }, 120_000);
});
