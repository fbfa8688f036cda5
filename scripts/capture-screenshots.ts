// `pnpm screenshots`: the pictures in docs/screenshots/, taken in Debian's chromium (scripts/install-test-tools.sh
// installs it): a type page of the docs site, and an inspector session against the AgentScope 1.1 reference agent
// (its stream checked item by item, the conformance suite run). Run it after changing either; the pictures hold
// times and ids, so each run differs and no check compares them.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createReferenceAgent } from '@agentproto/agentscope/reference-agent';
import { runCli } from '@agentproto/cli';
import { createInspector } from '@agentproto/cli/inspector';
import { resolveBinding } from '@agentproto/conformance';
import { serveLocal } from '@agentproto/runtime';
import { launchChromium } from './browser/chromium.js';
import { walkInspector } from './browser/inspector-session.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs', 'screenshots');
mkdirSync(OUT, { recursive: true });

const site = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-screenshots-')), 'site');
const quiet = { out: () => {}, err: (l: string) => console.error(l), stdin: async function* () {} };
if ((await runCli(['docs', site], quiet)) !== 0) process.exit(1);

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(path.join(site, 'a2a/1.0/types/Task.html')).href);
  await page.fill('#search', 'task');
  await page.waitForSelector('#search-results:not([hidden]) a');
  await page.screenshot({ path: path.join(OUT, 'docs-site.png') });
  console.log('wrote docs/screenshots/docs-site.png');

  const agent = await serveLocal(createReferenceAgent('1.1').fetch, 0);
  const { app } = await createInspector({
    binding: await resolveBinding('agentscope@1.1'),
    target: agent.url,
  });
  const inspector = await serveLocal(app.fetch, 0);
  const view = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await walkInspector(view, inspector.url);
  await view.evaluate(() => window.scrollTo(0, 0));
  await view.screenshot({ path: path.join(OUT, 'inspector.png'), fullPage: true });
  console.log('wrote docs/screenshots/inspector.png');
  inspector.server.close();
  agent.server.close();
} finally {
  await browser.close();
}
