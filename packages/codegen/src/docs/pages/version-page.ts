// A version's overview: its description (from the OpenAPI document), its operations and methods at a glance, every
// type with the first line of its description, and the documents of the set it is written in.
import { type Html, html } from '../html.js';
import { anchor, sitePaths } from '../site-paths.js';
import type { VersionContext } from './version-context.js';

/** The body of a version's overview page. */
export function versionPage(ctx: VersionContext, from: string): Html {
  const { v } = ctx;
  const link = ctx.link(from);
  const ops = sitePaths.operations(v.protocol, v.version);
  const latest = ctx.protocol.latest === v.version;
  return html`<h1 id="overview">${v.title}</h1>
<p class="kind">${ctx.protocol.title}, version <code>${v.version}</code>${latest ? ' (latest)' : ''}</p>
${v.description ? html`<p class="description">${v.description}</p>` : ''}
<h2 id="operations">Operations</h2>
<ul class="operations">
${v.surface.operations.map(
  (op) =>
    html`<li><a href="${ctx.to(from, `${ops}#${anchor('op', op.operationId)}`)}"><span class="method">${op.method}</span> <code>${op.path}</code></a> ${v.operationText.get(op.operationId)?.summary ?? ''}</li>`,
)}
${(v.surface.rpc?.methods ?? []).map(
  (m) =>
    html`<li><a href="${ctx.to(from, `${ops}#${anchor('rpc', m.name)}`)}"><span class="method">RPC</span> <code>${m.name}</code></a> ${v.methodText.get(m.name)?.summary ?? ''}</li>`,
)}
</ul>
<h2 id="types">Types (${v.types.size})</h2>
<table class="types"><tbody>
${[...v.types.values()].map((t) => html`<tr><td>${link(t.name)}</td><td>${firstSentence(t.schema.description)}</td></tr>`)}
</tbody></table>
<h2 id="documents">Documents</h2>
<p>The schemas as published, for other languages and tools:</p>
<ul class="documents">${v.documents.map((d) => html`<li><a href="${ctx.to(from, sitePaths.schema(d))}">${d.split('/').pop() ?? d}</a></li>`)}</ul>`;
}

/** The first sentence of a description, for tables. */
export function firstSentence(text: unknown): string {
  if (typeof text !== 'string') return '';
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}
