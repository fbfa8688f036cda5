// The docs site: every page, the search index, the stylesheet and script, and the schema set itself under
// `schemas/`. Pure: it returns the files and writes nothing (the CLI writes them).
import { readFileSync } from 'node:fs';
import type { JsonSchemaObject } from '@agentproto/runtime/contract';
import type { ExportFile } from '../export/export-schemas.js';
import { isRecord } from '../util/json.js';
import { html } from './html.js';
import { markdown } from './markdown.js';
import { page, rel, type VersionChoice } from './pages/layout.js';
import { operationsPage } from './pages/operations-page.js';
import { changesPage, decisionsPage, protocolPage } from './pages/protocol-pages.js';
import { sidebar } from './pages/sidebar.js';
import { typePage } from './pages/type-page.js';
import { versionContext } from './pages/version-context.js';
import { firstSentence, versionPage } from './pages/version-page.js';
import { fieldsOf } from './schema-view.js';
import { type DocsInput, type DocsProtocol, type DocsSite, siteModel } from './site-model.js';
import { anchor, sitePaths } from './site-paths.js';

/** One entry of the search index: what it is called, what it is, where it lives. */
export interface SearchEntry {
  name: string;
  kind: 'protocol' | 'version' | 'type' | 'operation' | 'method' | 'field';
  /** The protocol version (and for a field, its type) it belongs to. */
  where: string;
  path: string;
}

const asset = (name: string) => readFileSync(new URL(`../../assets/docs/${name}`, import.meta.url), 'utf8');

/** Renders the whole site from the schema set and the versions' surfaces. */
export function renderSite(input: DocsInput): ExportFile[] {
  const site = siteModel(input);
  const files: ExportFile[] = [];
  const search: SearchEntry[] = [];
  const add = (path: string, content: string) => files.push({ path, content });
  for (const f of site.files) add(sitePaths.schema(f.path), f.content);
  add(sitePaths.home, homePage(site));
  for (const p of site.protocols) {
    const crumbs: Array<[string, string]> = [
      ['home', sitePaths.home],
      [p.title, sitePaths.protocol(p.id)],
    ];
    search.push({ name: p.title, kind: 'protocol', where: p.id, path: sitePaths.protocol(p.id) });
    add(
      sitePaths.protocol(p.id),
      page({
        path: sitePaths.protocol(p.id),
        title: p.title,
        crumbs,
        body: protocolPage(site, p, sitePaths.protocol(p.id)),
      }),
    );
    if (p.decisions) {
      const path = sitePaths.decisions(p.id);
      add(
        path,
        page({
          path,
          title: `${p.title}: decisions`,
          crumbs: [...crumbs, ['decisions', path]],
          body: decisionsPage(site, p, path),
        }),
      );
    }
    for (const c of p.changes) {
      const path = sitePaths.changes(p.id, c.from, c.to);
      add(
        path,
        page({
          path,
          title: `${p.title}: ${c.from} → ${c.to}`,
          crumbs: [...crumbs, [`${c.from} → ${c.to}`, path]],
          body: changesPage(c, p, path),
        }),
      );
    }
    for (const v of p.versions) {
      const ctx = versionContext(p, v);
      const where = `${p.id} ${v.version}`;
      const vCrumbs: Array<[string, string]> = [...crumbs, [v.version, sitePaths.version(p.id, v.version)]];
      const switcher = (pathOf: (version: string) => string | undefined) =>
        versionChoices(p, v.version, pathOf);
      let path = sitePaths.version(p.id, v.version);
      search.push({ name: v.title, kind: 'version', where, path });
      add(
        path,
        page({
          path,
          title: v.title,
          crumbs: vCrumbs,
          versions: switcher((x) => sitePaths.version(p.id, x)),
          sidebar: sidebar(ctx, path, { page: 'overview' }),
          body: versionPage(ctx, path),
        }),
      );
      path = sitePaths.operations(p.id, v.version);
      add(
        path,
        page({
          path,
          title: `${v.title}: operations`,
          crumbs: [...vCrumbs, ['operations', path]],
          versions: switcher((x) => sitePaths.operations(p.id, x)),
          sidebar: sidebar(ctx, path, { page: 'operations' }),
          body: operationsPage(ctx, path),
        }),
      );
      for (const op of v.surface.operations)
        search.push(
          {
            name: `${op.method} ${op.path}`,
            kind: 'operation',
            where,
            path: `${path}#${anchor('op', op.operationId)}`,
          },
          { name: op.operationId, kind: 'operation', where, path: `${path}#${anchor('op', op.operationId)}` },
        );
      for (const m of v.surface.rpc?.methods ?? [])
        search.push({ name: m.name, kind: 'method', where, path: `${path}#${anchor('rpc', m.name)}` });
      for (const t of v.types.values()) {
        const typePath = sitePaths.type(p.id, v.version, t.name);
        search.push(
          { name: t.name, kind: 'type', where, path: typePath },
          ...fieldEntries(t.schema, where, t.name, typePath),
        );
        add(
          typePath,
          page({
            path: typePath,
            title: `${t.name} (${where})`,
            crumbs: [...vCrumbs, [t.name, typePath]],
            versions: switcher((x) =>
              p.versions.find((o) => o.version === x)?.types.has(t.name)
                ? sitePaths.type(p.id, x, t.name)
                : undefined,
            ),
            sidebar: sidebar(ctx, typePath, { page: 'type', name: t.name }),
            body: typePage(ctx, t, typePath),
          }),
        );
      }
    }
  }
  add('assets/base.css', asset('base.css'));
  add('assets/site.css', asset('site.css'));
  add('assets/search.js', asset('search.js'));
  // A script, not JSON: a page opened from file:// may not fetch, but it may load a script beside it.
  add('assets/search-index.js', `window.AGENTPROTO_SEARCH = ${JSON.stringify(search)};\n`);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The search entries of a type's fields: each field of its table leads to its row; a field of an inline variant of
 * a union (a member only one variant has) leads to the list of variants.
 */
function fieldEntries(
  schema: JsonSchemaObject,
  where: string,
  typeName: string,
  typePath: string,
): SearchEntry[] {
  const entry = (name: string, fragment: string): SearchEntry => ({
    name,
    kind: 'field',
    where: `${where} · ${typeName}`,
    path: `${typePath}#${fragment}`,
  });
  const out = fieldsOf(schema).fields.map((f) => entry(f.name, `field-${f.name}`));
  const seen = new Set(out.map((e) => e.name));
  const variants = [
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
  ];
  for (const v of variants) {
    if (!isRecord(v) || !isRecord(v.properties)) continue;
    for (const name of Object.keys(v.properties)) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push(entry(name, 'variants'));
    }
  }
  return out;
}

/** The switcher's entries: the same page in each version, or that version's overview when it has no such page. */
function versionChoices(
  p: DocsProtocol,
  current: string,
  pathOf: (version: string) => string | undefined,
): VersionChoice[] {
  return p.versions.map((o) => ({
    version: o.version,
    path: pathOf(o.version) ?? sitePaths.version(p.id, o.version),
    current: o.version === current,
  }));
}

function homePage(site: DocsSite): string {
  const from = sitePaths.home;
  const body = html`<div class="versions-box"><h2 id="protocols">Protocols</h2><ul>
${site.protocols.map(
  (p) =>
    html`<li><a href="${rel(from, sitePaths.protocol(p.id))}">${p.title}</a> — ${p.versions.map((v, i) => html`${i > 0 ? ', ' : ''}<a href="${rel(from, sitePaths.version(p.id, v.version))}">${v.version}</a>`)}</li>`,
)}
</ul>
${site.standalone.length > 0 ? html`<h2 id="reports">Report schemas</h2><ul>${site.standalone.map((s) => html`<li><a href="${rel(from, sitePaths.schema(s.file))}">${s.title}</a> ${firstSentence(s.description)}</li>`)}</ul>` : ''}
<p><a href="${rel(from, sitePaths.schema('catalog.json'))}">catalog.json</a>: every bundle, as SchemaStore lists schemas.</p>
</div>
${markdown(site.readme, (href) => (site.files.some((f) => f.path === href) ? rel(from, sitePaths.schema(href)) : undefined))}`;
  return page({ path: from, title: 'Agent wire protocols', crumbs: [['home', from]], body });
}
