// Our packages as a user installs them: every tarball passes publint and arethetypeswrong (ESM-only profile), and a
// user of one protocol installs that protocol's package, the runtime, the conformance kit and the registry, and nothing
// of the other protocols. Their declarations compile in the user's project under strict options, without skipLibCheck.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { PROJECT_COMPILER_OPTIONS } from '../../packages/cli/src/commands/new/templates.js';
import { installInNewFolder, npm, tarballsIn } from '../support/installed.js';
import { ROOT } from '../support/spec-files.js';
import { execFailure } from '../support/typed.js';

const tarballs = tarballsIn(inject('tarballs'));
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

/** Runs a checker; returns its exit code and output. */
function check(command: string, args: string[]): { code: number; output: string } {
  try {
    return {
      code: 0,
      output: execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe', timeout: 120_000 }),
    };
  } catch (error) {
    const e = execFailure(error);
    return { code: e.status ?? -1, output: `${e.stdout}${e.stderr}` };
  }
}

describe('packages > as packed', () => {
  it('there is one tarball per package', () => {
    expect(Object.keys(tarballs).sort()).toEqual(
      readdirSync(path.join(ROOT, 'packages'))
        .map((p) => `@agentproto/${p}`)
        .sort(),
    );
  });

  it.each(Object.entries(tarballs))('%s > publint --strict finds nothing', (_, tarball) => {
    const r = check(bin('publint'), ['--strict', tarball]);
    expect(r.code, r.output).toBe(0);
  });

  it.each(Object.entries(tarballs))('%s > arethetypeswrong (ESM only) finds nothing', (_, tarball) => {
    const r = check(bin('attw'), ['--profile', 'esm-only', tarball]);
    expect(r.code, r.output).toBe(0);
  });

  it('the checkers can fail > publint on exports naming missing files, attw on CommonJS resolution', () => {
    const broken = mkdtempSync(path.join(tmpdir(), 'agentproto-broken-'));
    writeFileSync(
      path.join(broken, 'package.json'),
      JSON.stringify({
        name: 'broken',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
    );
    const packed = execFileSync('npm', ['pack', '--pack-destination', broken], {
      cwd: broken,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1);
    expect(check(bin('publint'), ['--strict', path.join(broken, packed ?? '')]).code).not.toBe(0);
    // Our packages are ESM only: a CommonJS `require` of them is what the full profile reports.
    expect(check(bin('attw'), [tarballs['@agentproto/runtime'] ?? '']).code).not.toBe(0);
  });
});

describe('packages > a user of one protocol', () => {
  it('installs fixie, the runtime and the kit only; the kit checks fixie and names the package another protocol needs', () => {
    // The compiler, Node's types and tsx (to run check.ts) in the same install: none of them brings a package of ours.
    const dir = installInNewFolder('agentproto-one-protocol-', [
      tarballs['@agentproto/runtime'] ?? '',
      tarballs['@agentproto/fixie'] ?? '',
      tarballs['@agentproto/conformance'] ?? '',
      tarballs['@agentproto/registry'] ?? '',
      'typescript@~5.9.3',
      '@types/node@^20.19.0',
      'tsx@^4.20.0',
    ]);
    expect(readdirSync(path.join(dir, 'node_modules/@agentproto')).sort()).toEqual([
      'conformance',
      'fixie',
      'registry',
      'runtime',
    ]);
    writeFileSync(
      path.join(dir, 'check.ts'),
      `import { loadClientScenarios, resolveBinding, runClientConformance, runConformance, resolveSuite } from '@agentproto/conformance';
import { createReferenceAgent } from '@agentproto/fixie/reference-agent';
import { validators, type AgentMetadata } from '@agentproto/fixie/1.0';

const metadata: AgentMetadata = { type: 'standalone', sample_queries: null };
console.log('metadata', validators.AgentMetadata(metadata));
const report = await runConformance({ protocol: 'fixie', target: createReferenceAgent() });
console.log('fixie', report.summary.failed, report.summary.passed > 0);
// The client scenarios the fixie package ships; a client that sends nothing fails them.
const scenarios = await loadClientScenarios(await resolveBinding('fixie'));
const idle = await runClientConformance({ protocol: 'fixie', client: async () => ({ exitCode: 0 }), scenarios: [scenarios.scenarios[0]?.id ?? ''] });
console.log('client', scenarios.scenarios.length > 0, idle.summary.failed > 0);
try {
  await resolveSuite('agentscope');
} catch (error) {
  console.log('agentscope', (error as Error).message);
}
`,
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        // A new project's options, and our declarations checked too.
        compilerOptions: { ...PROJECT_COMPILER_OPTIONS, skipLibCheck: false },
        include: ['check.ts'],
      }),
    );
    npm(dir, ['exec', '--', 'tsc', '-p', 'tsconfig.json']);
    const out = execFileSync('node', ['--import', 'tsx', 'check.ts'], { cwd: dir, encoding: 'utf8' });
    expect(out).toMatch(/^metadata true$/m);
    expect(out).toMatch(/^fixie 0 true$/m);
    expect(out).toMatch(/^client true true$/m);
    expect(out).toMatch(
      /^agentscope checking agentscope needs @agentproto\/agentscope, which is not installed: npm install --save-dev @agentproto\/agentscope$/m,
    );
  });
});
