// `agentproto inspect` in a real browser (Debian's chromium, headless), against each reference agent we ship: the
// command serves its page on 127.0.0.1; the page shows what the agent says about itself, sends the ready request and
// marks every message and stream item valid; the conformance suite runs from the page and passes; and the session the
// page saves is accepted by `agentproto validate`.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReferenceAgent as createScopeAgent } from '@agentproto/agentscope/reference-agent';
import { resolveBinding } from '@agentproto/conformance';
import { serveLocal } from '@agentproto/runtime';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.js';
import { walkInspector } from '../../scripts/browser/inspector-session.js';
import { REFERENCE_AGENTS } from '../support/reference-agents.js';
import { BIN, runCollected } from '../support/run-cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-inspector-browser-'));
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Starts `agentproto inspect <agent> --protocol <p>` and resolves with the page's URL once it listens. */
async function startInspector(
  agent: string,
  protocol: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'inspect', agent, '--protocol', protocol], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inspect did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d;
    });
    child.on('exit', () => reject(new Error(`inspect exited: ${out}`)));
  });
  return { child, url };
}

// One agent per protocol version; the Agent Protocol 2025 agent is addressed by name in its paths.
// The walk starts from what an agent says about itself (its GET operations without parameters): a version with none
// (MCP 2026-07-28, POST only) has nothing for the page to show before a request is chosen, and is left out here.
const agents: typeof REFERENCE_AGENTS = [];
for (const entry of REFERENCE_AGENTS.filter(([n]) => !n.includes('never asks') && !n.includes('code-shot'))) {
  const surface = await (await resolveBinding(entry[1].protocol)).surface?.();
  if (surface?.operations.some((o) => o.method.toUpperCase() === 'GET' && o.pathParams.length === 0))
    agents.push(entry);
}

describe('browser > inspector', () => {
  it('invalid > a stream item out of order is marked invalid on the page, with its pointer and rule', async () => {
    const reference = createScopeAgent('1.1');
    // An AgentScope 1.1 agent whose stream repeats the sequence number of its second item.
    const agent = await serveLocal(async (r) => {
      const res = await reference.fetch(r);
      if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return res;
      const text = (await res.text()).replace('"sequence_number":1,', '"sequence_number":0,');
      return new Response(text, { status: res.status, headers: res.headers });
    }, 0);
    const { child, url } = await startInspector(agent.url, 'agentscope@1.1');
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await page.waitForSelector('#discovery .record');
      await page.click('#send');
      await page.waitForSelector('#log .record[data-direction="end"]', { timeout: 30_000 });
      const bad = page.locator('#log .record[data-valid="false"]').first();
      expect(await bad.getAttribute('data-direction')).toBe('event');
      expect(await bad.locator('.issues li').first().textContent()).toMatch(
        /^\/sequence_number .+ \[[\w.-]+ · item 2\]$/,
      );
      // Each item with the variant of its type it is; after the stream, what it answered.
      const labels = await page.locator('#log .record[data-direction="event"] .item-label').allTextContents();
      expect(labels[0]).toBe('StreamEvent › AgentResponse');
      expect(labels).toContain('StreamEvent › Message');
      const events = await page.locator('#log .record[data-direction="event"]').count();
      expect(labels).toHaveLength(events);
      expect(await page.locator('#log .answer h4').textContent()).toBe(`Answer: ${events} items`);
      expect(await page.locator('#log .answer details[open] .item-label').textContent()).toBe(
        'StreamEvent › AgentResponse',
      );
    } finally {
      await page.close();
      child.kill('SIGINT');
      await once(child, 'exit');
      agent.server.close();
    }
  });

  for (const [name, ref] of agents) {
    it(`session > ${name}: discovery, a checked answer or stream, conformance, a saved session validate accepts`, async () => {
      const agent = await serveLocal(ref.app().fetch, 0);
      const { child, url } = await startInspector(agent.url, ref.protocol);
      const page = await browser.newPage({ acceptDownloads: true });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await walkInspector(page, url, { path: { agent: 'echo' } });
        // What the agent says about itself: at least one answer, each valid.
        const discovery = await page
          .locator('#discovery .record')
          .evaluateAll((rows) => rows.map((r) => (r instanceof HTMLElement ? r.dataset.valid : undefined)));
        expect(discovery.length).toBeGreaterThan(0);
        expect(discovery.filter((valid) => valid !== 'true')).toEqual([]);
        // The request sent, its answer, each stream item: all checked and valid.
        const rows = await page.locator('#log .exchange .record').evaluateAll((els) =>
          els.map((r) => ({
            direction: r instanceof HTMLElement ? r.dataset.direction : undefined,
            valid: r instanceof HTMLElement ? r.dataset.valid : undefined,
          })),
        );
        expect(rows.map((r) => r.direction)).toContain('request');
        expect(rows.filter((r) => r.valid !== 'true')).toEqual([]);
        const streams = await page.evaluate(
          () => document.getElementById('operation-summary')?.textContent ?? '',
        );
        // An operation that may stream and was answered with one (MCP's endpoint may answer JSON instead).
        if (
          streams.includes('streams') &&
          rows.some((r) => r.direction === 'event' || r.direction === 'end')
        ) {
          const events = rows.filter((r) => r.direction === 'event').length;
          expect(events).toBeGreaterThan(0);
          expect(rows.at(-1)).toEqual({ direction: 'end', valid: 'true' });
          // After the stream, what it answered: every item counted.
          expect(await page.locator('#log .answer h4').textContent()).toBe(
            `Answer: ${events} ${events === 1 ? 'item' : 'items'}`,
          );
        }
        expect(await page.locator('#conformance-summary').getAttribute('data-failed')).toBe('0');
        expect(await page.locator('#conformance tbody tr[data-status="pass"]').count()).toBeGreaterThan(0);
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
        const file = path.join(tmp, download.suggestedFilename());
        await download.saveAs(file);
        expect(file.endsWith('.session.ndjson')).toBe(true);
        expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThan(3);
        const validated = await runCollected(['validate', file, '--protocol', ref.protocol]);
        expect(validated.out).toMatch(/^0 of \d+ items invalid in 1 file/m);
        expect(validated.code).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        child.kill('SIGINT');
        await once(child, 'exit');
        agent.server.close();
      }
    });
  }
});
