// What a config costs before its deliveries start: its webhook URL is checked (and its host resolved) once a minute
// per URL, not once per config or message, and the record written for it is not read back at once.
import { MemoryStore } from '@agentproto/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceAgent } from '../reference-agent/reference-agent.js';
import type { PushClock } from './outbox.js';
import { CHECKED_WEBHOOK_MS, CheckedWebhooks } from './push-config.js';
import { PUSH_CONFIGS } from './push-records.js';

const cleanups: Array<() => Promise<unknown> | undefined> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A resolver that answers `addresses` for every name, counting the names it was asked. */
function countingResolver(addresses: string[]) {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    return addresses;
  };
  return { asked, resolve };
}

describe('push > CheckedWebhooks', () => {
  it('a URL that passed is not checked again until CHECKED_WEBHOOK_MS have passed', async () => {
    const { asked, resolve } = countingResolver(['93.184.216.34']);
    let now = 1_000;
    const checks = new CheckedWebhooks({ resolve }, 10, () => now);
    await checks.check('https://hooks.example/a', 'url');
    await checks.check('https://hooks.example/a', 'url');
    expect(checks.has('https://hooks.example/a')).toBe(true);
    expect(asked).toEqual(['hooks.example']);
    now += CHECKED_WEBHOOK_MS;
    expect(checks.has('https://hooks.example/a')).toBe(false);
    await checks.check('https://hooks.example/a', 'url');
    expect(asked).toEqual(['hooks.example', 'hooks.example']);
  });

  it('a refused URL is not kept: it is checked, and refused, every time', async () => {
    const { asked, resolve } = countingResolver(['10.0.0.1']);
    const checks = new CheckedWebhooks({ resolve });
    for (let i = 0; i < 2; i++)
      await expect(checks.check('https://inside.example/', 'url')).rejects.toThrow(/private/);
    expect(asked).toEqual(['inside.example', 'inside.example']);
    expect(checks.has('https://inside.example/')).toBe(false);
  });

  it('holds at most `max` URLs: the one checked longest ago is forgotten first', async () => {
    const { asked, resolve } = countingResolver(['93.184.216.34']);
    const checks = new CheckedWebhooks({ resolve }, 2);
    for (const host of ['a.example', 'b.example', 'c.example']) await checks.check(`https://${host}/`, 'url');
    expect(['a', 'b', 'c'].map((h) => checks.has(`https://${h}.example/`))).toEqual([false, true, true]);
    await checks.check('https://a.example/', 'url');
    expect(asked).toEqual(['a.example', 'b.example', 'c.example', 'a.example']);
  });
});

describe('push > the cost of a config before its deliveries', () => {
  /** An agent on a store that counts reads of push records; its webhooks are on a name resolved by `resolve`. */
  function agent(resolve: (host: string) => Promise<string[]>) {
    const store = new MemoryStore();
    const reads = { pushRecords: 0 };
    const get = store.get.bind(store);
    store.get = <T>(collection: string, id: string) => {
      if (collection === PUSH_CONFIGS) reads.pushRecords++;
      return get<T>(collection, id);
    };
    const errors: unknown[] = [];
    const clock: PushClock = { sleep: async () => {}, random: () => 0.5 };
    const server = createReferenceAgent({
      chunkDelayMs: 0,
      store,
      onError: (e) => errors.push(e),
      // Deliveries never connect: the lookup fails them, and they are given up at once.
      push: {
        resolve,
        clock,
        lookup: (_host, _options, callback) => callback(new Error('no such host'), '', 4),
        limits: { maxAttempts: 1 },
      },
    });
    cleanups.push(() => server.push?.close());
    const send = async (body: unknown) =>
      (
        await server.app.request('/message:send', {
          method: 'POST',
          headers: { 'A2A-Version': '1.0', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    return { server, send, reads, errors };
  }
  const withConfig = (url: string) => ({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Plan a trip' }] },
    configuration: { taskPushNotificationConfig: { url } },
  });

  it('the inline config of each SendMessage has its host resolved once per URL, however many messages carry it', async () => {
    const { asked, resolve } = countingResolver(['93.184.216.34']);
    const a = agent(resolve);
    for (const url of ['https://hooks.example/1', 'https://hooks.example/1', 'https://other.example/2']) {
      const answer = await a.send(withConfig(url));
      expect(answer.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    }
    expect(asked).toEqual(['hooks.example', 'other.example']);
  });

  it('a config made by CreateTaskPushNotificationConfig starts delivering from the record as written: it is read once', async () => {
    const { resolve } = countingResolver(['93.184.216.34']);
    const a = agent(resolve);
    const { task } = await a.send({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Plan a trip' }] },
    });
    a.reads.pushRecords = 0;
    const res = await a.server.app.request(`/tasks/${task.id}/pushNotificationConfigs`, {
      method: 'POST',
      headers: { 'A2A-Version': '1.0', 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.example/x' }),
    });
    expect(res.status).toBe(200);
    // The read of the change that writes it; the delivery that starts then takes the entry written.
    expect(a.reads.pushRecords).toBe(1);
  });
});
