// The docs site in a real browser (Debian's chromium, headless): every page loads without a script error, every link
// and fragment of every page leads to something that exists (0 broken links), the search box finds a type by its
// name and a field by its name and takes the reader to its page, and the sidebar leads through the version.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.js';
import { runCollected } from '../support/run-cli.js';

const site = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-docs-browser-')), 'site');
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const built = await runCollected(['docs', site]);
  expect(built.code, built.err).toBe(0);
  browser = await launchChromium();
  // A context of its own: the crawl opens more tabs in it (a page from browser.newPage() cannot have siblings).
  page = await (await browser.newContext()).newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe('browser > docs site', () => {
  it('links > every page crawled from the home page loads, and every link and fragment leads somewhere', async () => {
    const { pages, broken, errors } = await crawl(page, path.join(site, 'index.html'));
    expect(pages).toBeGreaterThan(200);
    expect(broken).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('links > the crawl finds a missing page and a missing fragment planted in a small site', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agentproto-crawl-'));
    writeFileSync(path.join(dir, 'index.html'), '<a href="b.html#here">b</a> <a href="gone.html">gone</a>');
    writeFileSync(path.join(dir, 'b.html'), '<p id="there"><a href="index.html">back</a></p>');
    const { pages, broken } = await crawl(page, path.join(dir, 'index.html'));
    expect(pages).toBe(2);
    expect(broken.map((b) => path.basename(b.to))).toEqual(['b.html#here', 'gone.html']);
  });

  it('search > typing a type name lists it first; Enter opens its page', async () => {
    await page.goto(pathToFileURL(path.join(site, 'a2a/1.0/index.html')).href);
    await page.fill('#search', 'taskstatus');
    await page.waitForSelector('#search-results:not([hidden]) a');
    const first = await page.locator('#search-results a').first().textContent();
    expect(first).toMatch(/^TaskStatustype · a2a 1\.0$/);
    await page.press('#search', 'Enter');
    await page.waitForURL(/\/a2a\/1\.0\/types\/TaskStatus\.html$/);
    expect(await page.locator('h1').textContent()).toBe('TaskStatus');
    await page.fill('#search', 'no such thing at all');
    expect(await page.locator('#search-results li').first().textContent()).toBe('nothing found');
  });

  it('search > a field name lists the field; a click opens its type page at the field row', async () => {
    await page.goto(pathToFileURL(path.join(site, 'a2a/1.0/index.html')).href);
    await page.fill('#search', 'contextid');
    await page.waitForSelector('#search-results:not([hidden]) a');
    const hits = await page.locator('#search-results a').allTextContents();
    expect(hits).toContain('contextIdfield · a2a 1.0 · Task');
    await page.click('#search-results a[href$="/Task.html#field-contextId"]');
    await page.waitForURL(/\/a2a\/1\.0\/types\/Task\.html#field-contextId$/);
    expect(await page.locator('#field-contextId td code').first().textContent()).toBe('contextId');
  });

  it('sidebar > lists the operations and types of the version; a click opens the type, marked as the current page', async () => {
    await page.goto(pathToFileURL(path.join(site, 'a2a/1.0/operations.html')).href);
    expect(await page.locator('nav.sidebar [aria-current="page"]').textContent()).toBe('Operations');
    await page.click('nav.sidebar a:text-is("TaskStatus")');
    await page.waitForURL(/\/a2a\/1\.0\/types\/TaskStatus\.html$/);
    expect(await page.locator('nav.sidebar [aria-current="page"]').textContent()).toBe('TaskStatus');
  });

  it('version switcher > the same type in the other version', async () => {
    await page.goto(pathToFileURL(path.join(site, 'agentscope/1.1/types/AgentRequest.html')).href);
    await page.click('nav.versions a.version');
    await page.waitForURL(/\/agentscope\/0\.1\/types\/AgentRequest\.html$/);
    expect(await page.locator('nav.versions .current').textContent()).toBe('0.1');
  });
});

/** How many pages the crawl loads at once: each load waits on the browser's processes as much as it computes. */
const CRAWL_PAGES = 4;

/**
 * Visits every page reachable from `start` by links, in `CRAWL_PAGES` tabs of `page`'s browser context taking turns
 * at one queue; returns the pages seen, the links that lead nowhere, and script errors. What it finds does not
 * depend on the order the pages load in: every reachable page is visited once, and links are judged after the crawl.
 */
async function crawl(page: Page, start: string) {
  const errors: string[] = [];
  const ids = new Map<string, Set<string>>();
  const links: Array<{ from: string; to: string }> = [];
  const queue = [pathToFileURL(start).href];
  const seen = new Set(queue);
  // Tabs with nothing to load wait here until a tab that is loading finds more pages or the crawl ends.
  let loading = 0;
  let stopped = false;
  let waiting: Array<() => void> = [];
  const wake = () => {
    for (const w of waiting) w();
    waiting = [];
  };
  const tab = async (tabPage: Page) => {
    const onError = (e: Error) => errors.push(`${tabPage.url()}: ${e.message}`);
    tabPage.on('pageerror', onError);
    try {
      while (!stopped) {
        const url = queue.shift();
        if (url === undefined) {
          if (loading === 0) return;
          await new Promise<void>((r) => waiting.push(r));
          continue;
        }
        loading++;
        try {
          await tabPage.goto(url);
          const found = await tabPage.evaluate(() => ({
            ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
            hrefs: [...document.querySelectorAll('a[href], link[href], script[src]')].map((e) => {
              const href = 'href' in e && typeof e.href === 'string' ? e.href : '';
              return href || ('src' in e && typeof e.src === 'string' ? e.src : '');
            }),
          }));
          ids.set(url, new Set(found.ids));
          for (const href of found.hrefs) {
            if (!href.startsWith('file:')) continue;
            links.push({ from: url, to: href });
            const [target = href] = href.split('#');
            if (target.endsWith('.html') && !seen.has(target) && existsSync(fileURLToPath(target))) {
              seen.add(target);
              queue.push(target);
            }
          }
        } finally {
          loading--;
          wake();
        }
      }
    } finally {
      tabPage.off('pageerror', onError);
    }
  };
  const extra = await Promise.all(Array.from({ length: CRAWL_PAGES - 1 }, () => page.context().newPage()));
  try {
    await Promise.all([page, ...extra].map(tab));
  } finally {
    // A tab that failed leaves the others waiting for pages it would have found: stop them all.
    stopped = true;
    wake();
    await Promise.all(extra.map((p) => p.close()));
  }
  const broken = links
    .filter(({ to }) => {
      const [target = '', fragment] = to.split('#');
      if (!existsSync(fileURLToPath(target))) return true;
      return fragment !== undefined && fragment !== '' && !ids.get(target)?.has(decodeURIComponent(fragment));
    })
    // Sorted, as the tabs find links in whatever order their pages load.
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  return { pages: seen.size, broken, errors: errors.sort() };
}
