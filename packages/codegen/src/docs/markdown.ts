// Markdown (the READMEs and DECISIONS) to HTML with marked. Headings get GitHub-style ids so `#section` links work;
// a relative link is kept only when it names a file of the schema set (then it points at that file in the site), so
// the site never links into a repository that is not there; raw HTML in the text is shown, not run.
import { Marked } from 'marked';
import { escapeHtml, type Html, raw } from './html.js';

/** A GitHub-style heading id: lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/**
 * Renders Markdown. `resolve` maps a relative link (as written, relative to the document) to the site-relative href
 * of what it names, or undefined when the site does not hold it (the link text is kept, unlinked).
 */
export function markdown(text: string, resolve: (href: string) => string | undefined): Html {
  const seen = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text: plain }) {
        let id = slug(plain);
        const n = seen.get(id) ?? 0;
        seen.set(id, n + 1);
        if (n > 0) id = `${id}-${n}`;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const target = /^(https?:|mailto:|#)/.test(href) ? href : resolve(href);
        if (target === undefined) return inner;
        const t = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(target)}"${t}>${inner}</a>`;
      },
      image({ text: alt }) {
        return escapeHtml(alt);
      },
      html({ text: source }) {
        return /^\s*<!--[\s\S]*-->\s*$/.test(source) ? '' : escapeHtml(source);
      },
    },
  });
  return raw(marked.parse(text, { async: false }));
}
