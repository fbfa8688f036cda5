// Every package is published alone, so each carries what a user reads on the registry: a README with a heading, how
// to install it and a TypeScript example, and a package.json that states its license and the Node versions it runs
// on. The examples are compiled against the workspace packages, so a renamed export breaks this test, not a user.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/spec-files.js';
import { prop } from '../support/typed.js';

const PACKAGES = readdirSync(path.join(ROOT, 'packages')).sort();

/** A fenced code block of a README: its language, its text and the README line its first line of code is on. */
interface CodeBlock {
  lang: string;
  code: string;
  line: number;
}

/** The fenced code blocks of a Markdown text, in order. */
function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.trimEnd() === '```');
    if (end < 0) break;
    blocks.push({ lang: open[1] ?? '', code: lines.slice(i + 1, end).join('\n'), line: i + 2 });
    i = end;
  }
  return blocks;
}

/** What a package README lacks: its heading, its install section, a TypeScript example; or what it must not have. */
function readmeProblems(pkg: string, markdown: string): string[] {
  const problems: string[] = [];
  const name = `@agentproto/${pkg}`;
  if (markdown.split('\n')[0] !== `# ${name}`) problems.push(`the first line is not "# ${name}"`);
  const install = /^## Install\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1];
  if (install === undefined) problems.push('no "## Install" section');
  else if (!install.includes(`npm install ${name}`))
    problems.push(`the install section lacks "npm install ${name}"`);
  if (!codeBlocks(markdown).some((b) => b.lang === 'ts')) problems.push('no ```ts example');
  // Published alone, a package has nothing beside it: a relative link would point outside the tarball.
  for (const [link] of markdown.matchAll(/\]\((?!https?:\/\/)[^)]*\)/g))
    problems.push(`relative link ${link}`);
  return problems;
}

const readmes = PACKAGES.map((pkg) => {
  const file = path.join(ROOT, 'packages', pkg, 'README.md');
  return { pkg, file, text: existsSync(file) ? readFileSync(file, 'utf8') : undefined };
});

describe('packages > metadata', () => {
  it.each(PACKAGES)('%s > package.json states license and engines.node', (pkg) => {
    const manifest: unknown = JSON.parse(
      readFileSync(path.join(ROOT, 'packages', pkg, 'package.json'), 'utf8'),
    );
    expect({ license: prop(manifest, 'license'), node: prop(prop(manifest, 'engines'), 'node') }).toEqual({
      license: 'MIT',
      node: '>=20.18.1',
    });
  });

  it.each(readmes)('$pkg > README.md has a heading, an install section and a ts example', ({ pkg, text }) => {
    expect(text, `packages/${pkg}/README.md is missing`).toBeDefined();
    expect(readmeProblems(pkg, text ?? '')).toEqual([]);
  });

  it.each<[string, { given: string; want: string[] }]>([
    [
      'readme > complete',
      {
        given: '# @agentproto/x\n\n## Install\n\nnpm install @agentproto/x\n\n```ts\nlet a;\n```\n',
        want: [],
      },
    ],
    [
      'readme > wrong heading, no install, sh only, a relative link',
      {
        given: '# x\n\nSee [the root](../../README.md).\n\n```sh\nnpm install @agentproto/x\n```\n',
        want: [
          'the first line is not "# @agentproto/x"',
          'no "## Install" section',
          'no ```ts example',
          'relative link ](../../README.md)',
        ],
      },
    ],
    [
      'readme > install section for another package',
      {
        given: '# @agentproto/x\n\n## Install\n\nnpm install @agentproto/y\n\n## Example\n\n```ts\n```\n',
        want: ['the install section lacks "npm install @agentproto/x"'],
      },
    ],
  ])('%s', (_, { given, want }) => {
    expect(readmeProblems('x', given)).toEqual(want);
  });
});

/** A ts example as a module in memory, under the repository root so that `@agentproto/*` resolves as in a user's project. */
interface Example {
  where: string;
  file: string;
  source: string;
}

const examples: Example[] = readmes.flatMap(({ pkg, text }) =>
  codeBlocks(text ?? '')
    .filter((b) => b.lang === 'ts')
    .map((b, n) => ({
      where: `packages/${pkg}/README.md:${b.line}`,
      file: path.join(ROOT, 'test/packages', `.readme-${pkg}-${n}.ts`),
      source: b.code,
    })),
);

// Proves the check can fail: the runtime example with an import the package does not export.
const broken: Example = {
  where: 'a deliberately broken example',
  file: path.join(ROOT, 'test/packages', '.readme-broken.ts'),
  source: "import { openStores } from '@agentproto/runtime';\n\nawait openStores('memory');\n",
};

/** One program over every example (the packages are checked once), with the options of tsconfig.base.json. */
function compile(all: readonly Example[]): Map<string, string[]> {
  const base = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(base.config?.compilerOptions, ROOT);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const sources = new Map(all.map((e) => [e.file, e.source]));
  const read = host.readFile.bind(host);
  host.readFile = (f) => sources.get(path.resolve(f)) ?? read(f);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => sources.has(path.resolve(f)) || exists(f);
  const program = ts.createProgram([...sources.keys()], { ...options, noEmit: true }, host);
  const found = new Map<string, string[]>();
  for (const e of all) {
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(e.file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      const [readme, first] = e.where.split(/:(?=\d+$)/);
      const at = first === undefined ? `${e.where}, line ${line + 1}` : `${readme}:${Number(first) + line}`;
      return `${at}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
    found.set(e.file, diagnostics);
  }
  return found;
}

describe('packages > README examples', () => {
  it('every ```ts block of a package README compiles against the workspace packages; a wrong import does not', () => {
    expect(examples.length).toBeGreaterThanOrEqual(PACKAGES.length);
    const found = compile([...examples, broken]);
    expect(examples.flatMap((e) => found.get(e.file) ?? [])).toEqual([]);
    expect((found.get(broken.file) ?? []).join('\n')).toMatch(/has no exported member named 'openStores'/);
  });
});
