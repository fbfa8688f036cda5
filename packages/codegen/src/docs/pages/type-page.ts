// A type's page: what it is, its fields (type, required, default, constraints, description), the variants of a union,
// where it is used, and its examples and counterexamples (each counterexample with the errors our validator gives).
import type { JsonSchemaObject } from '@agentproto/runtime/contract';
import { isRecord } from '../../util/json.js';
import { type Html, html } from '../html.js';
import { constraintsOf, fieldsOf, refType, typeLabel } from '../schema-view.js';
import type { DocsFixture, DocsIssue, DocsType } from '../site-model.js';
import { sitePaths } from '../site-paths.js';
import type { VersionContext } from './version-context.js';

/** The body of a type's page. */
export function typePage(ctx: VersionContext, type: DocsType, from: string): Html {
  const link = ctx.link(from);
  const s = type.schema;
  const description = typeof s.description === 'string' ? s.description : '';
  const { fields, inherits } = fieldsOf(s);
  const variants = (Array.isArray(s.oneOf) && s.oneOf) || (Array.isArray(s.anyOf) && s.anyOf) || [];
  const usedBy = ctx.usedBy(type.name);
  const schemaHref = ctx.to(from, sitePaths.schema(type.file));
  return html`<h1 id="${type.name}">${type.name}</h1>
<p class="kind">${typeLabel({ ...s, $ref: undefined }, link)} · <a href="${schemaHref}">${type.file.split('/').pop() ?? ''}</a> · <code>${String(s.$id ?? '')}</code></p>
${description ? html`<p class="description">${description}</p>` : ''}
${constraintsOf(s).length > 0 ? html`<ul class="constraints">${constraintsOf(s).map((c) => html`<li>${c}</li>`)}</ul>` : ''}
${inherits.length > 0 ? html`<p>Has every field of ${inherits.map((n, i) => html`${i > 0 ? ', ' : ''}${link(n)}`)}, and:</p>` : ''}
${fields.length > 0 ? fieldTable(fields, link) : ''}
${variants.length > 0 ? html`<h2 id="variants">One of</h2><ul class="variants">${variants.map((v) => html`<li>${typeLabel(v, link)}${isRecord(v) && typeof v.description === 'string' ? html` — ${v.description}` : ''}</li>`)}</ul>${discriminator(s)}` : ''}
${conditional(s, link)}
${usedBy.length > 0 ? html`<h2 id="used-by">Used by</h2><ul class="used-by">${usedBy.map((u) => html`<li>${u(from)}</li>`)}</ul>` : ''}
${fixtures('Examples', 'examples', type.examples, false)}
${fixtures('Counterexamples', 'counterexamples', type.counterexamples, true)}`;
}

function fieldTable(fields: ReturnType<typeof fieldsOf>['fields'], link: (n: string) => Html): Html {
  return html`<h2 id="fields">Fields</h2>
<table class="fields"><thead><tr><th>field</th><th>type</th><th>required</th><th>default</th><th>constraints</th><th>description</th></tr></thead><tbody>
${fields.map((f) => {
  const target = typeof f.schema.$ref === 'string' ? refType(f.schema.$ref) : undefined;
  const description = typeof f.schema.description === 'string' ? f.schema.description : '';
  return html`<tr id="field-${f.name}"><td><code>${f.name}</code></td><td>${typeLabel(f.schema, link)}</td><td>${f.required ? 'yes' : 'no'}</td><td>${f.schema.default === undefined ? '' : html`<code>${JSON.stringify(f.schema.default)}</code>`}</td><td>${constraintsOf(f.schema).map((c) => html`<div>${c}</div>`)}</td><td>${description}${target && !description ? html`see ${link(target)}` : ''}</td></tr>`;
})}
</tbody></table>`;
}

function discriminator(s: JsonSchemaObject): Html | string {
  const d = s.discriminator;
  return isRecord(d) && typeof d.propertyName === 'string'
    ? html`<p>The field <code>${d.propertyName}</code> tells the variants apart.</p>`
    : '';
}

function conditional(s: JsonSchemaObject, link: (n: string) => Html): Html | string {
  if (s.if === undefined) return '';
  return html`<h2 id="conditions">Conditions</h2><p>If it matches <code>${JSON.stringify(s.if)}</code>, it is ${typeLabel(s.then, link)}${s.else === undefined ? '' : html`; otherwise ${typeLabel(s.else, link)}`}.</p>`;
}

function fixtures(title: string, id: string, list: readonly DocsFixture[], counter: boolean): Html | string {
  if (list.length === 0) return '';
  return html`<h2 id="${id}">${title}</h2>
${list.map(
  (f) => html`<section class="fixture ${counter ? 'counter' : 'example'}" id="${id}-${f.name}">
<h3>${f.name}</h3>
<pre><code>${f.text.trimEnd()}</code></pre>
${counter ? issues(f.issues, 'Our validator rejects it:') : f.issues.length > 0 ? issues(f.issues, 'Unexpectedly rejected:') : ''}
</section>`,
)}`;
}

function issues(list: readonly DocsIssue[], lead: string): Html {
  if (list.length === 0) return html`<p class="issues none">Our validator accepts it.</p>`;
  return html`<div class="issues"><p>${lead}</p><ul>${list.map(
    (i) =>
      html`<li><code>${i.pointer === '' ? '(the message)' : i.pointer}</code> ${i.message} <span class="rule">${i.rule}</span></li>`,
  )}</ul></div>`;
}
