// `agentproto docs` over our own protocols: a page for every type of every version, no broken link anywhere, every
// `$id` served at its path, the counterexamples with our validators' errors, and a folder that is not a site kept.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLinks, type ExportFile, SCHEMA_ID_BASE } from '@agentproto/codegen';
import { knownProtocols, resolveBinding } from '@agentproto/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCollected } from '../support/run-cli.js';
import { list, prop, stringAt } from '../support/typed.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-docs-'));
const out = path.join(tmp, 'site');
let files: ExportFile[] = [];
let result = { code: -1, out: '', err: '' };

function walk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

// Building the whole site takes tens of seconds, more on a loaded machine: a time limit here would fail at random.
beforeAll(async () => {
  result = await runCollected(['docs', out]);
  files = walk(out).map((p) => ({ path: p, content: readFileSync(path.join(out, p), 'utf8') }));
}, 600_000);

describe('docs > our protocols', () => {
  it('command > exit 0, says what it wrote', () => {
    expect(result.err).toBe('');
    expect(result.out).toMatch(/^wrote \d+ pages and \d+ other files to /);
    expect(result.code).toBe(0);
  });

  it('links > 0 broken links over the whole site', () => {
    expect(files.filter((f) => f.path.endsWith('.html')).length).toBeGreaterThan(200);
    expect(checkLinks(files)).toEqual([]);
  });

  it('types > every public type of every version has its page, and the overview links it', async () => {
    const has = new Set(files.map((f) => f.path));
    for (const p of knownProtocols()) {
      for (const { version } of p.versions) {
        const binding = await resolveBinding(`${p.protocol}@${version}`);
        const overview = files.find((f) => f.path === `${p.protocol}/${version}/index.html`)?.content ?? '';
        const types = Object.keys(binding.validators).filter((n) => /^[A-Z]/.test(n));
        expect(types.length).toBeGreaterThan(0);
        for (const t of types) {
          expect(has, `${p.protocol}@${version} ${t}`).toContain(`${p.protocol}/${version}/types/${t}.html`);
          expect(overview).toContain(`href="../../${p.protocol}/${version}/types/${t}.html"`);
        }
      }
    }
  });

  it('$id > every schema file sits at the path its $id names; catalog.json beside them', () => {
    const schemas = files.filter((f) => f.path.startsWith('schemas/') && f.path.endsWith('.schema.json'));
    expect(schemas.length).toBeGreaterThan(200);
    for (const f of schemas) {
      const id = String(prop(JSON.parse(f.content), '$id') ?? '');
      expect(id.startsWith(`${SCHEMA_ID_BASE}/`), f.path).toBe(true);
      expect(`schemas/${id.slice(SCHEMA_ID_BASE.length + 1)}`).toBe(f.path);
    }
    const catalog: unknown = JSON.parse(
      files.find((f) => f.path === 'schemas/catalog.json')?.content ?? '{}',
    );
    for (const url of list(prop(catalog, 'schemas'), 'the catalog').map((s) => stringAt(s, 'url')))
      expect(
        files.some((f) => `${SCHEMA_ID_BASE}/${f.path.slice('schemas/'.length)}` === url),
        url,
      ).toBe(true);
  });

  it('counterexamples > every one shows the errors our validator gives', () => {
    let seen = 0;
    for (const f of files.filter((x) => /\/types\/[^/]+\.html$/.test(x.path))) {
      for (const section of f.content.split('<section class="fixture counter"').slice(1)) {
        seen++;
        expect(section, f.path).toMatch(/Our validator rejects it:<\/p><ul><li><code>/);
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it('changes and decisions > each protocol with two versions links its change report; decisions rendered', () => {
    const scope = files.find((f) => f.path === 'agentscope/index.html')?.content ?? '';
    expect(scope).toContain('href="../agentscope/changes/0.1-to-1.1.html"');
    const report = files.find((f) => f.path === 'agentscope/changes/0.1-to-1.1.html')?.content ?? '';
    expect(report).toMatch(/<code>service<\/code> is now required/);
    expect(files.find((f) => f.path === 'a2a/decisions.html')?.content).toMatch(/<h1 id="[^"]+">/);
  });

  it('version switcher > a type page links the same type in the other versions', () => {
    const page = files.find((f) => f.path === 'agentscope/1.1/types/AgentRequest.html')?.content ?? '';
    expect(page).toContain(
      '<a class="version" href="../../../agentscope/0.1/types/AgentRequest.html">0.1</a>',
    );
  });

  it('sidebar > every page of a version lists its operations and types, the type being read marked', () => {
    const typePages = files.filter((f) => /^[^/]+\/[^/]+\/types\/[^/]+\.html$/.test(f.path));
    expect(typePages.length).toBeGreaterThan(200);
    for (const f of typePages) {
      const name = f.path.split('/').pop() ?? '';
      const nav = f.content.split('<nav class="sidebar"')[1]?.split('</nav>')[0] ?? '';
      expect(nav, f.path).toContain(`href="${name}" aria-current="page">`);
    }
  });

  it('samples > each operation and method shows its request; streams as SSE events of real items; JSON-RPC enveloped', () => {
    const operations = files.filter((f) => f.path.endsWith('/operations.html'));
    let sections = 0;
    for (const f of operations)
      for (const section of f.content.split('<section class="operation"').slice(1)) {
        sections++;
        expect(section, f.path).toContain('<h4>Request sample</h4>');
      }
    expect(sections).toBeGreaterThan(50);
    const a2a = files.find((f) => f.path === 'a2a/1.0/operations.html')?.content ?? '';
    const section = (id: string) => a2a.split(`id="${id}"`)[1]?.split('</section>')[0] ?? '';
    // The items are the version's examples of StreamResponse, one `data:` line each.
    expect(section('op-sendStreamingMessage')).toMatch(
      /content-type: text\/event-stream\n\ndata: \{&quot;(task|statusUpdate|artifactUpdate)&quot;:/,
    );
    expect(section('op-sendStreamingMessage')).toContain('example StreamResponse/');
    expect(section('rpc-SendMessage')).toMatch(
      /POST \/jsonrpc[\s\S]*&quot;jsonrpc&quot;: &quot;2\.0&quot;,\n {2}&quot;id&quot;: 1,\n {2}&quot;method&quot;: &quot;SendMessage&quot;/,
    );
    expect(section('rpc-SendStreamingMessage')).toContain(
      'data: {&quot;jsonrpc&quot;:&quot;2.0&quot;,&quot;id&quot;:1,&quot;result&quot;:{',
    );
  });

  it('search > fields are in the index, and every entry leads to its page and its anchor there', () => {
    const index = list(
      JSON.parse(
        (files.find((f) => f.path === 'assets/search-index.js')?.content ?? '')
          .replace(/^window\.AGENTPROTO_SEARCH = /, '')
          .replace(/;\n$/, ''),
      ),
    );
    expect(index).toContainEqual({
      name: 'contextId',
      kind: 'field',
      where: 'a2a 1.0 · Task',
      path: 'a2a/1.0/types/Task.html#field-contextId',
    });
    expect(index.filter((e) => prop(e, 'kind') === 'field').length).toBeGreaterThan(1000);
    const page = {
      path: 'search.html',
      content: index.map((e) => `<a href="${stringAt(e, 'path')}">`).join(''),
    };
    expect(checkLinks([...files, page])).toEqual([]);
  });

  it('usage > an unknown protocol is refused (exit 2), naming the known ones', async () => {
    const r = await runCollected(['docs', path.join(tmp, 'unknown'), '--protocol', 'fixie', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown protocol "nope"; known: .*fixie/);
  });

  it('folder > a folder holding other files is refused (exit 2); a site built before is replaced', async () => {
    const other = path.join(tmp, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'keep.txt'), 'mine');
    const refused = await runCollected(['docs', other, '--protocol', 'fixie']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/holds files and is not a docs site/);
    expect(readFileSync(path.join(other, 'keep.txt'), 'utf8')).toBe('mine');
    const again = await runCollected(['docs', out, '--protocol', 'fixie']);
    expect(again.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['assets', 'fixie', 'index.html', 'schemas']);
  });
});
