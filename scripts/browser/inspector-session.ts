// One inspector session in a browser, as a user walks it: the page loads and fetches what the agent says about
// itself, the ready request (or a chosen one) is sent and its answer watched to the end, the conformance suite is run.
// The browser test checks what this leaves on the page; the screenshot script photographs it.
import type { Page } from 'playwright-core';

/** What to send: the operation (the page's default when absent) and path parameters to fill. */
export interface SessionPlan {
  operation?: string;
  path?: Record<string, string>;
}

/** Drives the page at `url` (the inspector, already pointed at the agent) through a session. */
export async function walkInspector(page: Page, url: string, plan: SessionPlan = {}): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('#discovery .record', { timeout: 30_000 });
  if (plan.operation) await page.selectOption('#operation', plan.operation);
  for (const [name, value] of Object.entries(plan.path ?? {})) {
    const input = page.locator(`#params input[data-where="path"][data-name="${name}"]`);
    if ((await input.count()) > 0) await input.fill(value);
  }
  await page.waitForSelector('#body-check[data-valid], #body-label[hidden]', {
    state: 'attached',
    timeout: 10_000,
  });
  await page.click('#send');
  // The exchange is over when the Send button is back.
  await page.waitForSelector('#log .exchange', { timeout: 10_000 });
  await page.waitForFunction(
    () => {
      const send = document.getElementById('send');
      return send instanceof HTMLButtonElement && !send.disabled;
    },
    undefined,
    {
      timeout: 60_000,
    },
  );
  await page.click('#run-conformance');
  await page.waitForSelector('#conformance-summary[data-failed]', { timeout: 120_000 });
}
