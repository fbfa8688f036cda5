// The docs renderer on a tiny made-up protocol: pages and links, escaping, fixtures with their errors, the search
// index; and the link check proven able to fail.
import type { Surface } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';
import { list, prop, stringAt } from '../../../../test/support/typed.js';
import type { ExportFile } from '../export/export-schemas.js';
import { checkLinks } from './check-links.js';
import { escapeHtml, html, raw } from './html.js';
import { markdown } from './markdown.js';
import { renderSite } from './render-site.js';
import type { DocsInput } from './site-model.js';

const id = (t: string) => `https://agentproto.dev/schemas/tiny/1/${t}.schema.json`;
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const thing = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: id('Thing'),
  description: 'A thing <script>alert(1)</script> with a name.',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, description: 'Its name.' },
    kind: { $ref: 'Kind.schema.json' },
  },
  additionalProperties: false,
};
const kind = { $schema: thing.$schema, $id: id('Kind'), type: 'string', enum: ['a', 'b'], default: 'a' };
const surface: Surface = {
  schemas: [thing, kind],
  examples: {},
  operations: [
    {
      operationId: 'makeThing',
      method: 'POST',
      path: '/things',
      pathParams: [],
      queryParams: [],
      body: {
        required: true,
        contents: [
          { mediaType: 'application/json', kind: 'json', typeName: 'Thing', schema: { $ref: id('Thing') } },
        ],
      },
      responses: {
        '201': [
          { mediaType: 'application/json', kind: 'json', typeName: 'Thing', schema: { $ref: id('Thing') } },
        ],
      },
    },
    {
      operationId: 'watchThings',
      method: 'GET',
      path: '/things/events',
      pathParams: [],
      queryParams: [],
      responses: {
        '200': [
          {
            mediaType: 'text/event-stream',
            kind: 'stream',
            schema: { type: 'string' },
            item: { framing: 'sse', typeName: 'Thing' },
          },
        ],
      },
    },
  ],
  rpc: {
    endpoint: '/rpc',
    errors: [],
    methods: [
      {
        name: 'things/make',
        params: {
          type: 'object',
          properties: { thing: { $ref: id('Thing') }, note: { type: 'string', minLength: 2 } },
          required: ['thing', 'note'],
        },
        paramsType: 'rpc_things_make_params',
        resultType: 'Kind',
        errors: [],
      },
      {
        name: 'things/watch',
        params: { type: 'object', properties: {} },
        paramsType: 'rpc_things_watch_params',
        resultType: 'Thing',
        stream: 'sse',
        errors: [],
      },
    ],
  },
};
const files: ExportFile[] = [
  {
    path: 'README.md',
    content: '# The set\n\nSee [the catalog](catalog.json) and [nowhere](../packages/x.ts).\n',
  },
  { path: 'catalog.json', content: '{}\n' },
  {
    path: 'tiny/protocol.json',
    content: json({ id: 'tiny', title: 'Tiny', latest: '1', versions: { '1': { title: 'Tiny 1' } } }),
  },
  { path: 'tiny/README.md', content: '# Tiny\n\nDecided in [DECISIONS](DECISIONS.md#names).\n' },
  { path: 'tiny/DECISIONS.md', content: '# Decisions\n\n## Names\n\nNames are short.\n' },
  { path: 'tiny/1/Thing.schema.json', content: json(thing) },
  { path: 'tiny/1/Kind.schema.json', content: json(kind) },
  {
    path: 'tiny/1/openapi.yaml',
    content:
      'openapi: 3.1.0\ninfo: {title: Tiny, version: "1", description: A tiny protocol.}\npaths:\n  /things:\n    post: {operationId: makeThing, summary: Make a thing.}\n',
  },
  { path: 'tiny/1/examples/Thing/named.json', content: '{ "name": "x" }\n' },
  { path: 'tiny/1/counterexamples/Thing/no-name.json', content: '{ "kind": "a" }\n' },
];
const input: DocsInput = {
  files,
  versions: [
    {
      protocol: 'tiny',
      version: '1',
      surface,
      check: (_type, value) =>
        prop(value, 'name') === undefined
          ? [{ pointer: '/name', message: 'is required', rule: 'required' }]
          : [],
    },
  ],
  changes: [],
};

describe('docs > renderer', () => {
  const site = renderSite(input);
  const text = (p: string) => site.find((f) => f.path === p)?.content ?? '';

  it('pages > home, protocol, decisions, version, operations, one per type; the set under schemas/', () => {
    const pages = site.filter((f) => f.path.endsWith('.html')).map((f) => f.path);
    expect(pages).toEqual([
      'index.html',
      'tiny/1/index.html',
      'tiny/1/operations.html',
      'tiny/1/types/Kind.html',
      'tiny/1/types/Thing.html',
      'tiny/decisions.html',
      'tiny/index.html',
    ]);
    for (const f of files) expect(text(`schemas/${f.path}`)).toBe(f.content);
  });

  it('links > every link leads somewhere: $refs to type pages, Markdown links only to what the site holds', () => {
    expect(checkLinks(site)).toEqual([]);
    expect(text('tiny/1/types/Thing.html')).toContain(
      '<a class="type" href="../../../tiny/1/types/Kind.html">Kind</a>',
    );
    expect(text('tiny/index.html')).toContain('<a href="../tiny/decisions.html#names">DECISIONS</a>');
    expect(text('index.html')).toContain('<a href="schemas/catalog.json">the catalog</a>');
    expect(text('index.html')).toContain('and nowhere.');
  });

  it('type page > fields with type, required, default and constraints; text escaped', () => {
    const page = text('tiny/1/types/Thing.html');
    expect(page).toContain('A thing &lt;script&gt;alert(1)&lt;/script&gt; with a name.');
    expect(page).not.toContain('<script>alert');
    expect(page).toMatch(
      /<tr id="field-name"><td><code>name<\/code><\/td><td>string<\/td><td>yes<\/td><td><\/td><td><div>min length: 1<\/div>/,
    );
    expect(text('tiny/1/types/Kind.html')).toContain('one of: &quot;a&quot;, &quot;b&quot;');
    expect(page).toContain('POST /things');
  });

  it('fixtures > examples shown; each counterexample with the errors the validator gives', () => {
    const page = text('tiny/1/types/Thing.html');
    expect(page).toMatch(/id="examples-named"/);
    expect(page).toMatch(
      /id="counterexamples-no-name"[\s\S]*Our validator rejects it:[\s\S]*<code>\/name<\/code> is required <span class="rule">required<\/span>/,
    );
  });

  it('operations > method, path, summary, body and responses by status', () => {
    const page = text('tiny/1/operations.html');
    expect(page).toContain('id="op-makeThing"');
    expect(page).toContain('Make a thing.');
    expect(page).toMatch(/<td>201<\/td><td><code>application\/json<\/code><\/td><td><a class="type"/);
  });

  it('search > the index names every type, operation and version with its page', () => {
    const index = JSON.parse(
      text('assets/search-index.js')
        .replace(/^window\.AGENTPROTO_SEARCH = /, '')
        .replace(/;\n$/, ''),
    );
    expect(index).toContainEqual({
      name: 'Thing',
      kind: 'type',
      where: 'tiny 1',
      path: 'tiny/1/types/Thing.html',
    });
    expect(index).toContainEqual({
      name: 'makeThing',
      kind: 'operation',
      where: 'tiny 1',
      path: 'tiny/1/operations.html#op-makeThing',
    });
    expect(index).toContainEqual({
      name: 'name',
      kind: 'field',
      where: 'tiny 1 · Thing',
      path: 'tiny/1/types/Thing.html#field-name',
    });
    expect(index).toContainEqual({
      name: 'kind',
      kind: 'field',
      where: 'tiny 1 · Thing',
      path: 'tiny/1/types/Thing.html#field-kind',
    });
    // Each entry leads to a page of the site, and a field to its row there.
    const page = {
      path: 'search.html',
      content: list(index)
        .map((e) => `<a href="${stringAt(e, 'path')}">`)
        .join(''),
    };
    expect(checkLinks([...site, page])).toEqual([]);
  });

  it('samples > request and answer from the examples; a stream as SSE events; JSON-RPC in its envelope', () => {
    const page = text('tiny/1/operations.html');
    const op = (id: string) => page.split(`id="${id}"`)[1]?.split('</section>')[0] ?? '';
    const made = op('op-makeThing');
    expect(made).toContain(
      '<h4>Request sample</h4><p class="sample-source">example Thing/named</p><pre><code>POST /things\ncontent-type: application/json\n\n{\n  &quot;name&quot;: &quot;x&quot;\n}</code></pre>',
    );
    expect(made).toContain('<h4>Response 201 sample</h4>');
    expect(op('op-watchThings')).toContain(
      '<pre><code>HTTP 200\ncontent-type: text/event-stream\n\ndata: {&quot;name&quot;:&quot;x&quot;}</code></pre>',
    );
    // No example of the params: built from the schema, the referenced type by its own example.
    expect(op('rpc-things-make')).toContain(
      JSON.stringify(
        { jsonrpc: '2.0', id: 1, method: 'things/make', params: { thing: { name: 'x' }, note: 'xx' } },
        null,
        2,
      ).replace(/"/g, '&quot;'),
    );
    expect(op('rpc-things-make')).toMatch(
      /result: built from the schema[\s\S]*&quot;result&quot;: &quot;a&quot;/,
    );
    expect(op('rpc-things-watch')).toContain(
      'data: {&quot;jsonrpc&quot;:&quot;2.0&quot;,&quot;id&quot;:1,&quot;result&quot;:{&quot;name&quot;:&quot;x&quot;}}',
    );
  });

  it('sidebar > every page of a version lists its operations, then its types; the page being read marked', () => {
    for (const p of [
      'tiny/1/index.html',
      'tiny/1/operations.html',
      'tiny/1/types/Kind.html',
      'tiny/1/types/Thing.html',
    ]) {
      const nav = text(p).split('<nav class="sidebar"')[1]?.split('</nav>')[0] ?? '';
      const order = ['op-makeThing', 'op-watchThings', 'rpc-things-make', 'Kind.html', 'Thing.html'];
      expect(
        order.map((x) => nav.indexOf(x)).every((at, i, all) => at > 0 && (i === 0 || at > (all[i - 1] ?? 0))),
        p,
      ).toBe(true);
      expect(nav.match(/aria-current="page"/g), p).toHaveLength(1);
    }
    expect(text('tiny/1/types/Thing.html')).toContain(
      '<li><a href="Thing.html" aria-current="page">Thing</a></li>',
    );
    expect(text('tiny/1/operations.html')).toContain('aria-current="page">Operations</a>');
    expect(text('tiny/index.html')).not.toContain('class="sidebar"');
  });

  it('offline > no page loads anything from another host', () => {
    for (const f of site.filter((x) => x.path.endsWith('.html')))
      expect(f.content, f.path).not.toMatch(/(?:src|href)="(?:https?:)?\/\/[^"]*\.(?:js|css|woff2?)"/);
  });
});

describe('docs > link check', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['missing file', { given: '<a href="b.html">', want: 'no file b.html' }],
    ['missing fragment', { given: '<a href="a.html#nope">', want: 'no element #nope in a.html' }],
    ['outside the site', { given: '<a href="../x.html">', want: 'outside the site' }],
    ['missing script', { given: '<script src="s.js"></script>', want: 'no file s.js' }],
  ];
  for (const [name, { given, want }] of cases) {
    it(`finds > ${name}`, () => {
      const broken = checkLinks([{ path: 'a.html', content: `<p id="here">${given}</p>` }]);
      expect(broken.map((b) => b.why)).toEqual([want]);
    });
  }
  it('passes > a fragment that exists, another host, a page linking to itself', () => {
    const page = '<p id="here"><a href="#here"> <a href="https://example.com/x"> <a href="a.html#here"></p>';
    expect(checkLinks([{ path: 'a.html', content: page }])).toEqual([]);
  });
});

describe('docs > html', () => {
  it('escapes > interpolated text, not markup', () => {
    expect(html`<p title="${'"x"'}">${'<b>'}${raw('<i>ok</i>')}${['a', html`<br>`]}</p>`.text).toBe(
      '<p title="&quot;x&quot;">&lt;b&gt;<i>ok</i>a<br></p>',
    );
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
  it('markdown > raw HTML shown as text, comments dropped, headings get ids', () => {
    const out = markdown('# A b\n\n<!-- hidden -->\n\n<img src=x onerror=alert(1)>\n', () => undefined).text;
    expect(out).toContain('<h1 id="a-b">A b</h1>');
    expect(out).not.toContain('hidden');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
