// Every operation of a version: method and path, parameters, request bodies and responses with their media types
// and statuses, the items of streamed responses; then the JSON-RPC methods, when the version has that binding.
import type { SurfaceContent, SurfaceOperation, SurfaceParameter } from '@agentproto/runtime/contract';
import { type Html, html } from '../html.js';
import { constraintsOf, type TypeLink, typeLabel } from '../schema-view.js';
import { anchor } from '../site-paths.js';
import { methodSamples, operationSamples } from './operation-samples.js';
import type { VersionContext } from './version-context.js';

/** The body of a version's operations page. */
export function operationsPage(ctx: VersionContext, from: string): Html {
  const link = ctx.link(from);
  const { v } = ctx;
  const methods = v.surface.rpc?.methods ?? [];
  return html`<h1 id="operations">Operations of ${v.title}</h1>
${v.surface.operations.length > 0 ? html`<h2 id="http">HTTP</h2>` : ''}
${v.surface.operations.map((op) => operation(op, ctx, link))}
${methods.length > 0 ? html`<h2 id="json-rpc">JSON-RPC methods</h2>` : ''}
${methods.map((m) => {
  const text = v.methodText.get(m.name) ?? {};
  return html`<section class="operation" id="${anchor('rpc', m.name)}">
<h3><span class="method">RPC</span> <code>${m.name}</code></h3>
${text.summary ? html`<p class="summary">${text.summary}</p>` : ''}
${text.description ? html`<p class="description">${text.description}</p>` : ''}
<dl>
<dt>params</dt><dd>${typeLabel(m.params, link)}</dd>
<dt>result</dt><dd>${ctx.v.types.has(m.resultType) ? link(m.resultType) : html`<code>${m.resultType}</code>`}${m.stream ? html` — streamed (${m.stream}), one JSON-RPC response per item` : ''}</dd>
${m.errors.length > 0 ? html`<dt>errors</dt><dd>${m.errors.join(', ')}</dd>` : ''}
</dl>
${methodSamples(m, v.surface.operations, v.surface.rpc?.endpoint ?? '/', ctx.samples)}
</section>`;
})}`;
}

function operation(op: SurfaceOperation, ctx: VersionContext, link: TypeLink): Html {
  const text = ctx.v.operationText.get(op.operationId) ?? {};
  return html`<section class="operation" id="${anchor('op', op.operationId)}">
<h3><span class="method">${op.method}</span> <code>${op.path}</code> <span class="operation-id">${op.operationId}</span></h3>
${text.summary ? html`<p class="summary">${text.summary}</p>` : ''}
${text.description ? html`<p class="description">${text.description}</p>` : ''}
${parameters('Path parameters', op.pathParams, link)}
${parameters('Query parameters', op.queryParams, link)}
${op.body ? html`<h4>Request body${op.body.required ? '' : ' (optional)'}</h4>${contents(op.body.contents, link)}` : ''}
<h4>Responses</h4>
<table class="responses"><thead><tr><th>status</th><th>media type</th><th>body</th></tr></thead><tbody>
${Object.entries(op.responses).map(([status, list]) =>
  list.length === 0
    ? html`<tr><td>${status}</td><td></td><td>no body</td></tr>`
    : list.map(
        (c) => html`<tr><td>${status}</td><td><code>${c.mediaType}</code></td><td>${body(c, link)}</td></tr>`,
      ),
)}
</tbody></table>
${operationSamples(op, ctx.samples)}
</section>`;
}

function parameters(title: string, list: readonly SurfaceParameter[], link: TypeLink): Html | string {
  if (list.length === 0) return '';
  return html`<h4>${title}</h4><table class="parameters"><thead><tr><th>name</th><th>type</th><th>required</th><th>constraints</th><th>description</th></tr></thead><tbody>
${list.map(
  (p) =>
    html`<tr><td><code>${p.name}</code></td><td>${typeLabel(p.schema, link)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${constraintsOf(p.schema).join('; ')}</td><td>${typeof p.schema.description === 'string' ? p.schema.description : ''}</td></tr>`,
)}
</tbody></table>`;
}

function contents(list: readonly SurfaceContent[], link: TypeLink): Html {
  return html`<ul class="contents">${list.map((c) => html`<li><code>${c.mediaType}</code>: ${body(c, link)}</li>`)}</ul>`;
}

function body(c: SurfaceContent, link: TypeLink): Html {
  const named = (n: string | undefined, schema: unknown) => (n ? link(n) : typeLabel(schema, link));
  if (c.kind === 'stream')
    return html`a stream (${c.item?.framing ?? 'items'}) of ${named(c.item?.typeName, undefined)}`;
  if (c.kind === 'form')
    return html`a form: ${typeLabel(c.schema, link)}${c.fileFields?.length ? html` (files in ${c.fileFields.join(', ')})` : ''}`;
  if (c.kind === 'binary') return html`bytes`;
  return named(c.typeName, c.schema);
}
