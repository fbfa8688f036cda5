// The sidebar of every page of a protocol version: the version's overview, its operations (HTTP, then JSON-RPC
// methods), then its types, the page being read marked (`aria-current`). Plain links, no script: it works offline.
import path from 'node:path/posix';
import { escapeHtml, type Html, html, raw } from '../html.js';
import { anchor, sitePaths } from '../site-paths.js';
import type { VersionContext } from './version-context.js';

/** Which page of the version is being read. */
export type SidebarPlace = { page: 'overview' } | { page: 'operations' } | { page: 'type'; name: string };

/** A sidebar's entries as markup, each with and without the current-page mark: made once per version and folder. */
interface SidebarParts {
  version: [string, string];
  operations: [string, string] | undefined;
  types: Map<string, [string, string]>;
}

const made = new WeakMap<VersionContext, Map<string, SidebarParts>>();

/** The sidebar of the page at `from`. */
export function sidebar(ctx: VersionContext, from: string, place: SidebarPlace): Html {
  // Every type page of a version has the same sidebar but for the mark: its entries are rendered once per folder.
  const here = path.dirname(from);
  let byFolder = made.get(ctx);
  if (!byFolder) {
    byFolder = new Map();
    made.set(ctx, byFolder);
  }
  let parts = byFolder.get(here);
  if (!parts) {
    parts = sidebarParts(ctx, here);
    byFolder.set(here, parts);
  }
  const pick = (pair: [string, string], yes: boolean) => (yes ? pair[1] : pair[0]);
  const { v } = ctx;
  const types = [...parts.types].map(([name, pair]) =>
    pick(pair, place.page === 'type' && place.name === name),
  );
  return raw(`<nav class="sidebar" aria-label="${escapeHtml(v.title)}">
<p class="sidebar-version">${pick(parts.version, place.page === 'overview')}</p>
${parts.operations ? pick(parts.operations, place.page === 'operations') : ''}
<h2>Types</h2>
<ul class="sidebar-types">${types.join('')}</ul>
</nav>`);
}

function sidebarParts(ctx: VersionContext, here: string): SidebarParts {
  const { v } = ctx;
  const ops = sitePaths.operations(v.protocol, v.version);
  // Links relative to the page's own folder (`Task.html` beside a type page), not through the root as elsewhere: the
  // sidebar is on every page of a version, and its links are most of a page's bytes.
  const to = (target: string) => path.relative(here, target) || path.basename(target);
  const both = (make: (mark: Html | string) => Html): [string, string] => [
    make('').text,
    make(html` aria-current="page"`).text,
  ];
  const methods = v.surface.rpc?.methods ?? [];
  const items = html`${v.surface.operations.map(
    (op) =>
      html`<li><a href="${to(`${ops}#${anchor('op', op.operationId)}`)}"><span class="verb">${op.method}</span> ${op.path}</a></li>`,
  )}${methods.map(
    (m) =>
      html`<li><a href="${to(`${ops}#${anchor('rpc', m.name)}`)}"><span class="verb">RPC</span> ${m.name}</a></li>`,
  )}`;
  return {
    version: both(
      (mark) => html`<a href="${to(sitePaths.version(v.protocol, v.version))}"${mark}>${v.title}</a>`,
    ),
    operations:
      v.surface.operations.length + methods.length > 0
        ? both(
            (mark) =>
              html`<h2><a href="${to(ops)}"${mark}>Operations</a></h2>
<ul class="sidebar-operations">${items}</ul>`,
          )
        : undefined,
    types: new Map(
      [...v.types.keys()].map((name) => [
        name,
        both(
          (mark) =>
            html`<li><a href="${to(sitePaths.type(v.protocol, v.version, name))}"${mark}>${name}</a></li>`,
        ),
      ]),
    ),
  };
}
