// The AgentStore contract against Redis (second test stage: it needs redis-server from Debian, and its redis-cli).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../packages/runtime/src/stores/redis-store.js';
import { describeAgentStore } from '../../packages/runtime/src/stores/store.case.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(() => server?.stop());

let stores = 0;
const prefixes = new WeakMap<object, string>();

describeAgentStore('redis', {
  // Each store gets a prefix of its own: the same server, data apart.
  async open() {
    const prefix = `contract-${++stores}:`;
    const store: RedisStore = await openRedisStore(server.url, { prefix, blockMs: 1000 });
    prefixes.set(store, prefix);
    return store;
  },
  async openRetaining(retainFinishedMs, now) {
    return openRedisStore(server.url, {
      prefix: `contract-${++stores}:`,
      blockMs: 1000,
      retainFinishedMs,
      now,
    });
  },
  async openSame(store) {
    // sound: the suite gives openSame only stores that open made, and open records each one's prefix.
    return openRedisStore(server.url, { prefix: prefixes.get(store) as string, blockMs: 1000 });
  },
});

describe('redis store > retention', () => {
  it("a finished log's keys carry its deadline as a Redis TTL; a record's hash none (the sweep takes it and its indexes)", async () => {
    const store = await openRedisStore(server.url, { prefix: 'retention:', retainFinishedMs: 60_000 });
    try {
      await store.put('tasks', 't', { done: true });
      await store.append('events', 1);
      await store.append('kept', 1);
      await store.expire([{ collection: 'tasks', id: 't' }, { log: 'events' }]);
      const pttl = (key: string) =>
        Number(
          execFileSync('redis-cli', ['-p', String(server.port), 'PTTL', key], { encoding: 'utf8' }).trim(),
        );
      for (const key of ['retention:log:events', 'retention:log-seq:events']) {
        expect(pttl(key)).toBeGreaterThan(0);
        expect(pttl(key)).toBeLessThanOrEqual(60_000);
      }
      // -1: the key is there, without a TTL.
      expect(pttl('retention:rec:tasks:t')).toBe(-1);
      expect(pttl('retention:log:kept')).toBe(-1);
    } finally {
      await store.close();
    }
  });
});
