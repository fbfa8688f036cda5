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
  'memory | sqlite:<file> (sqlite::memory: for a private in-memory database) | redis://[user:password@]host:port[/db]; ' +
  'any may end in ?retain=<n>ms|s|m|h|d: how long finished runs and tasks are kept (default 7d)';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Splits `?retain=<duration>` off a spec: the spec without it, and the duration in milliseconds if given. */
function retention(spec: string): [string, number | undefined] {
  const at = spec.lastIndexOf('?retain=');
  if (at < 0) return [spec, undefined];
  const text = spec.slice(at + '?retain='.length);
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  const [, n, unit] = match ?? [];
  if (n === undefined || unit === undefined)
    throw new StoreSpecError(
      `retain must be a duration such as 7d, 12h or 30m, not "${text}" (in "${spec}")`,
    );
  return [spec.slice(0, at), Number(n) * (UNITS[unit] ?? 1)];
}

/**
 * Opens the store a spec names: `memory` (the default when the spec is empty), `sqlite:<path>` (the file is created
 * if needed; better-sqlite3 must be installed), or a `redis://` / `rediss://` URL (ioredis must be installed). The
 * drivers are loaded only when asked for, so an agent that keeps state in memory installs neither. Any spec may end
 * in `?retain=<duration>`: how long the store keeps what is finished (AgentStore.expire), its `retainFinishedMs`.
 */
export async function openStore(spec: string | undefined): Promise<AgentStore> {
  const value = spec?.trim() ?? '';
  try {
    const [target, retainFinishedMs] = retention(value);
    const options = retainFinishedMs === undefined ? {} : { retainFinishedMs };
    if (target === '' || target === 'memory') return new MemoryStore(options);
    if (target.startsWith('sqlite:')) {
      const path = target.slice('sqlite:'.length);
      if (path === '') throw new StoreSpecError('sqlite: needs a file path, as in sqlite:./agent.db');
      const { openSqliteStore } = await import('./sqlite-store.js');
      return await openSqliteStore(path, options);
    }
    if (target.startsWith('redis://') || target.startsWith('rediss://')) {
      const { openRedisStore } = await import('./redis-store.js');
      return await openRedisStore(target, options);
    }
  } catch (error) {
    if (error instanceof StoreSpecError) throw error;
    throw new StoreSpecError(`cannot open the store "${value}": ${errorMessage(error)}`);
  }
  throw new StoreSpecError(`"${value}" names no store; use ${STORE_SPEC_HELP}`);
}
