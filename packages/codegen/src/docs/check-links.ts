// The site's own link check: every `href` and `src` of every page names a file of the site, and every `#fragment` an
// element of the page it points at. The docs command runs it on what it renders, and the tests run it on the site.
import path from 'node:path/posix';
import type { ExportFile } from '../export/export-schemas.js';

/** A link that leads nowhere: the page it is on, and where it points. */
export interface BrokenLink {
  page: string;
  href: string;
  why: string;
}

const ATTRIBUTE = /\s(?:href|src)="([^"]*)"/g;
const ID = /\sid="([^"]*)"/g;

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every broken link of a site (links to other hosts are not followed). */
export function checkLinks(files: readonly ExportFile[]): BrokenLink[] {
  const byPath = new Map(files.map((f) => [f.path, f.content]));
  const ids = new Map<string, Set<string>>();
  const idsOf = (p: string) => {
    let set = ids.get(p);
    if (!set) {
      set = new Set([...(byPath.get(p) ?? '').matchAll(ID)].map((m) => unescapeHtml(m[1] ?? '')));
      ids.set(p, set);
    }
    return set;
  };
  // What a link from a folder leads to, worked out once: pages of one folder share most links (the sidebar's).
  const verdicts = new Map<string, string | undefined>();
  const verdict = (page: string, href: string): string | undefined => {
    const [target = '', fragment] = href.split('#');
    let file =
      target === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(target)));
    if (file.endsWith('/') || file === '.') file = path.join(file, 'index.html');
    if (file.startsWith('..')) return 'outside the site';
    if (!byPath.has(file)) return `no file ${file}`;
    if (fragment && file.endsWith('.html') && !idsOf(file).has(decodeURIComponent(fragment)))
      return `no element #${fragment} in ${file}`;
    return undefined;
  };
  const broken: BrokenLink[] = [];
  for (const f of files) {
    if (!f.path.endsWith('.html')) continue;
    const folder = path.dirname(f.path);
    for (const m of f.content.matchAll(ATTRIBUTE)) {
      const href = unescapeHtml(m[1] ?? '');
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      // A link to the page itself (`#x`, ``) depends on the page, not only on its folder.
      const key = href === '' || href.startsWith('#') ? `${f.path}\n${href}` : `${folder}/\n${href}`;
      if (!verdicts.has(key)) verdicts.set(key, verdict(f.path, href));
      const why = verdicts.get(key);
      if (why !== undefined) broken.push({ page: f.path, href, why });
    }
  }
  return broken;
}
