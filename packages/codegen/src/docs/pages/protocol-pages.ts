// A protocol's pages: its README with its versions and their changes, its DECISIONS, and each version-to-version
// change report (what `agentproto diff` finds, each change with whom it breaks and a message that proves it).
import type { Change } from '../../diff/diff-types.js';
import { witnessShown, witnessText } from '../../diff/witness-text.js';
import { type Html, html, withCode } from '../html.js';
import { markdown } from '../markdown.js';
import type { DocsChanges, DocsProtocol, DocsSite } from '../site-model.js';
import { sitePaths } from '../site-paths.js';
import { rel } from './layout.js';

/**
 * Resolves a relative Markdown link of a protocol's document (written relative to `schemas/<protocol>/`) to the
 * site: a file of the schema set, or nothing.
 */
export function protocolLinks(site: DocsSite, protocol: string, from: string) {
  const inSet = new Set(site.files.map((f) => f.path));
  return (href: string): string | undefined => {
    const [target = '', fragment] = href.split('#');
    const parts: string[] = [protocol];
    for (const seg of target.split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.' && seg !== '') parts.push(seg);
    }
    const file = parts.join('/');
    if (file === `${protocol}/DECISIONS.md`)
      return rel(from, sitePaths.decisions(protocol)) + (fragment ? `#${fragment}` : '');
    if (file === `${protocol}/README.md`) return rel(from, sitePaths.protocol(protocol));
    return inSet.has(file) ? rel(from, sitePaths.schema(file)) : undefined;
  };
}

/** The body of a protocol's page. */
export function protocolPage(site: DocsSite, p: DocsProtocol, from: string): Html {
  return html`<div class="versions-box"><h2 id="versions">Versions</h2><ul>
${p.versions.map((v) => html`<li><a href="${rel(from, sitePaths.version(p.id, v.version))}">${v.title}</a>${v.version === p.latest ? ' (latest)' : ''}</li>`)}
</ul>
${p.changes.length > 0 ? html`<h2 id="changes">Changes between versions</h2><ul>${p.changes.map((c) => html`<li><a href="${rel(from, sitePaths.changes(p.id, c.from, c.to))}">${c.from} → ${c.to}</a>: ${summary(c)}</li>`)}</ul>` : ''}
${p.decisions ? html`<p><a href="${rel(from, sitePaths.decisions(p.id))}">Decisions</a>: every place where the schemas chose, and why.</p>` : ''}
</div>
${markdown(p.readme, protocolLinks(site, p.id, from))}`;
}

/** The body of a protocol's decisions page. */
export function decisionsPage(site: DocsSite, p: DocsProtocol, from: string): Html {
  return markdown(p.decisions, protocolLinks(site, p.id, from));
}

function summary(c: DocsChanges): string {
  const s = c.report.summary;
  return `${s.changes} changes; ${s.receivers} break receivers, ${s.senders} break senders`;
}

/** The body of a change report's page. */
export function changesPage(c: DocsChanges, p: DocsProtocol, from: string): Html {
  const typeHref = (version: string, name: string) =>
    p.versions.find((v) => v.version === version)?.types.has(name)
      ? rel(from, sitePaths.type(p.id, version, name))
      : undefined;
  const subject = (ch: Change) => {
    const href =
      ch.area === 'type' ? (typeHref(c.to, ch.subject) ?? typeHref(c.from, ch.subject)) : undefined;
    return href ? html`<a class="type" href="${href}">${ch.subject}</a>` : html`<code>${ch.subject}</code>`;
  };
  return html`<h1 id="changes">${p.title}: ${c.from} → ${c.to}</h1>
<p>${summary(c)}; ${c.report.summary.unproven} without a witness. <em>Receivers</em>: a message the new version allows that the old one rejects. <em>Senders</em>: a message the old version allows that the new one rejects.</p>
<table class="changes"><thead><tr><th>subject</th><th>change</th><th>breaks</th><th>witness</th></tr></thead><tbody>
${c.report.changes.map(
  (ch) =>
    html`<tr class="breaks-${ch.breaks}"><td>${subject(ch)}</td><td>${withCode(ch.message)} <span class="rule">${ch.rule}</span></td><td>${ch.breaks}${ch.proven ? '' : ' (no witness)'}</td><td>${ch.witnesses.slice(0, 1).map((w) => html`<details><summary>${witnessText(w.rejection)}</summary><pre><code>${JSON.stringify(witnessShown(w.message), null, 2)}</code></pre></details>`)}</td></tr>`,
)}
</tbody></table>`;
}
