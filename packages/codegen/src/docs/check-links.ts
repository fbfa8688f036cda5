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
  const broken: BrokenLink[] = [];
  for (const f of files) {
    if (!f.path.endsWith('.html')) continue;
    for (const m of f.content.matchAll(ATTRIBUTE)) {
      const href = unescapeHtml(m[1] ?? '');
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const [target = '', fragment] = href.split('#');
      let file =
        target === '' ? f.path : path.normalize(path.join(path.dirname(f.path), decodeURIComponent(target)));
      if (file.endsWith('/') || file === '.') file = path.join(file, 'index.html');
      if (file.startsWith('..')) broken.push({ page: f.path, href, why: 'outside the site' });
      else if (!byPath.has(file)) broken.push({ page: f.path, href, why: `no file ${file}` });
      else if (fragment && file.endsWith('.html') && !idsOf(file).has(decodeURIComponent(fragment)))
        broken.push({ page: f.path, href, why: `no element #${fragment} in ${file}` });
    }
  }
  return broken;
}
