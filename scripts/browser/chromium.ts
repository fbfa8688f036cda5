// Debian's chromium, driven headless through playwright-core (which downloads nothing): what the browser tests and
// the screenshot script run the docs site and the inspector in. scripts/install-test-tools.sh installs the browser.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Where the browser is: $AGENTPROTO_CHROMIUM, else Debian's. */
export function chromiumPath(): string {
  const found = [process.env.AGENTPROTO_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => p !== undefined && p !== '' && existsSync(p),
  );
  if (!found)
    throw new Error(
      'no chromium found: run `bash scripts/install-test-tools.sh` as root (or set AGENTPROTO_CHROMIUM)',
    );
  return found;
}

/** Starts the browser headless. As root (CI), chromium's sandbox cannot start, so it runs without it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    timeout: 60_000,
  });
}
