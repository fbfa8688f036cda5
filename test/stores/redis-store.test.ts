// The AgentStore contract against Redis (second test stage: it needs redis-server from Debian).
import { afterAll, beforeAll } from 'vitest';
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
  async openSame(store) {
    // sound: the suite gives openSame only stores that open made, and open records each one's prefix.
    return openRedisStore(server.url, { prefix: prefixes.get(store) as string, blockMs: 1000 });
  },
});
