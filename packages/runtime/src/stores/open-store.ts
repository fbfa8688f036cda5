// `--store memory`, `--store sqlite:./agent.db`, `--store redis://127.0.0.1:6379`: one string names where an agent's
// state lives, so a command line, an environment variable or a config file can choose it.
import { errorMessage } from '../unknown-values.js';
import type { AgentStore } from './agent-store.js';
import { MemoryStore } from './memory-store.js';

/** Why a store could not be opened: an unknown kind, a missing driver, an unreachable server. */
export class StoreSpecError extends Error {
  override name = 'StoreSpecError';
}

/** The forms `openStore` takes, for help texts. */
export const STORE_SPEC_HELP =
  'memory | sqlite:<file> (sqlite::memory: for a private in-memory database) | redis://[user:password@]host:port[/db]';

/**
 * Opens the store a spec names: `memory` (the default when the spec is empty), `sqlite:<path>` (the file is created if
 * needed; better-sqlite3 must be installed), or a `redis://` / `rediss://` URL (ioredis must be installed). The
 * drivers are loaded only when asked for, so an agent that keeps state in memory installs neither.
 */
export async function openStore(spec: string | undefined): Promise<AgentStore> {
  const value = spec?.trim() ?? '';
  if (value === '' || value === 'memory') return new MemoryStore();
  try {
    if (value.startsWith('sqlite:')) {
      const path = value.slice('sqlite:'.length);
      if (path === '') throw new StoreSpecError('sqlite: needs a file path, as in sqlite:./agent.db');
      const { openSqliteStore } = await import('./sqlite-store.js');
      return await openSqliteStore(path);
    }
    if (value.startsWith('redis://') || value.startsWith('rediss://')) {
      const { openRedisStore } = await import('./redis-store.js');
      return await openRedisStore(value);
    }
  } catch (error) {
    if (error instanceof StoreSpecError) throw error;
    throw new StoreSpecError(`cannot open the store "${value}": ${errorMessage(error)}`);
  }
  throw new StoreSpecError(`"${value}" names no store; use ${STORE_SPEC_HELP}`);
}
