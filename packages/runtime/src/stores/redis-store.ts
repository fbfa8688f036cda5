// The Redis AgentStore, through ioredis: records are hashes, each event log is a Redis Stream whose entry ids are our
// own (entry n is stream id `n-0`), counters are INCR keys. Writes that read before they write run as Lua scripts, so
// they are atomic whichever process sends them. Live following uses one blocking XREAD per process for every log its
// clients follow: several server processes share runs, and a client can follow or resume a run on any of them.
import type { Redis } from 'ioredis';
import { errorMessage } from '../unknown-values.js';
import {
  type AgentStore,
  type AppendGuard,
  DEFAULT_RETAIN_FINISHED_MS,
  entryJson,
  followLog,
  type IndexKeys,
  type IndexRange,
  type ListOptions,
  type LogEntry,
  type LogGuard,
  type LogListener,
  type StoredItem,
  type StoredRecord,
  SWEEP_LIMIT,
} from './agent-store.js';
import { GroupCommit } from './group-commit.js';

/** Options of a RedisStore. */
export interface RedisStoreOptions {
  /** Prepended to every key, so several stores can share a Redis database (default `agentproto:`). */
  prefix?: string;
  /** How long one blocking read waits, in milliseconds, before it asks again (default 5,000). */
  blockMs?: number;
  /**
   * How long finished records and logs (`expire`) are kept, in milliseconds (default DEFAULT_RETAIN_FINISHED_MS,
   * 7 days). A log's keys carry that deadline as a Redis TTL, so they go even if no process sweeps; a record goes at
   * the first sweep after it (every `expire` call sweeps, and so does opening the store), which also takes it out of
   * its indexes — a TTL on the record's hash would leave its index entries behind.
   */
  retainFinishedMs?: number;
  /** The clock retention reads (default Date.now; tests give their own). */
  now?: () => number;
}

// Each index of a collection is a sorted set of \`key NUL id\` members, all at score 0, read in lexical order; the
// record's hash keeps its keys (field \`index\`, JSON by escaped index name) so a new write or a delete can remove them.
// Lua fragment: removes the record KEYS[1]'s entries from the indexes under ARGV[n] (their key prefix), for id ARGV[m].
const UNINDEX = (prefix: string, id: string) => `
local old = redis.call('HGET', KEYS[1], 'index')
if old then
  for name, key in pairs(cjson.decode(old)) do redis.call('ZREM', ${prefix} .. name, key .. '\\0' .. ${id}) end
end`;

// KEYS: record hash, order index (a sorted set of record keys), order counter. ARGV: value JSON, expected revision
// or '', index keys JSON or '', the collection's index key prefix, the record id.
const PUT = `
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if ARGV[2] ~= '' and rev ~= tonumber(ARGV[2]) then return -1 end
redis.call('HSET', KEYS[1], 'rev', rev + 1, 'value', ARGV[1])
if rev == 0 then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), KEYS[1]) end
if ARGV[3] ~= '' then
  ${UNINDEX('ARGV[4]', 'ARGV[5]')}
  for name, key in pairs(cjson.decode(ARGV[3])) do redis.call('ZADD', ARGV[4] .. name, 0, key .. '\\0' .. ARGV[5]) end
  redis.call('HSET', KEYS[1], 'index', ARGV[3])
end
return rev + 1`;

// KEYS: order index. ARGV: first and last position. The values of the records there, in one atomic read ('' for
// none). The record keys come from the index: a single Redis server, not a cluster.
const LIST = `
local keys = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
local out = {}
for i, key in ipairs(keys) do out[i] = redis.call('HGET', key, 'value') or '' end
return out`;

// A batch of appends, in order (a group commit), packed into two arguments: the bytes sent per append are its log's
// escaped name, its value and its guard, three lines of ARGV[2], instead of three full keys and three arguments (the
// client spent its time building and writing those, the server parsing them). ARGV[1] is the key prefix; the script
// names the keys itself, as LIST does (a single Redis server, not a cluster). A line ends at the first newline: none
// occurs inside one, as an escaped name has none and JSON.stringify never writes one (it escapes them in strings).
// The guard is '' (none), `l<last id>` (the log's expected last id) or `r<revision> <record key>`. Answers each
// append's id, or -1 where its guard did not hold; each guard sees the appends before it in the batch.
const APPEND = `
local prefix, batch = ARGV[1], ARGV[2]
local ids, n, at = {}, 0, 1
while at <= #batch do
  local nameEnd = string.find(batch, '\\n', at, true)
  local valueEnd = string.find(batch, '\\n', nameEnd + 1, true)
  local guardEnd = string.find(batch, '\\n', valueEnd + 1, true)
  local name = string.sub(batch, at, nameEnd - 1)
  local seq = prefix .. 'log-seq:' .. name
  local held = true
  if guardEnd > valueEnd + 1 then
    local guard = string.sub(batch, valueEnd + 1, guardEnd - 1)
    if string.byte(guard, 1) == 108 then
      held = tonumber(redis.call('GET', seq) or '0') == tonumber(string.sub(guard, 2))
    else
      local space = string.find(guard, ' ', 2, true)
      held = tonumber(redis.call('HGET', string.sub(guard, space + 1), 'rev') or '0')
        == tonumber(string.sub(guard, 2, space - 1))
    end
  end
  n = n + 1
  if held then
    local id = redis.call('INCR', seq)
    redis.call('XADD', prefix .. 'log:' .. name, id .. '-0', 'v', string.sub(batch, nameEnd + 1, valueEnd - 1))
    ids[n] = id
  else
    ids[n] = -1
  end
  at = guardEnd + 1
end
return ids`;

/** Most appends one batch carries: a script runs alone on the server, so a batch is kept short. */
const MAX_BATCH = 500;

// KEYS: record hash, order index. ARGV: the collection's index key prefix, the record id. (A script, not MULTI:
// ioredis leaves a MULTI that a closing connection cuts short as an unhandled rejection.)
const DELETE = `
${UNINDEX('ARGV[1]', 'ARGV[2]')}
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1`;

type Scripted = Redis & {
  agentprotoPut(...args: Array<string | number>): Promise<number>;
  agentprotoAppend(prefix: string, batch: string): Promise<number[]>;
  agentprotoDelete(...args: Array<string | number>): Promise<number>;
  agentprotoList(...args: Array<string | number>): Promise<string[]>;
};

/** Connects to Redis at a `redis://` (or `rediss://`) URL and answers a store once the connection is ready. */
export async function openRedisStore(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
  let RedisClass: typeof Redis;
  try {
    RedisClass = (await import('ioredis')).Redis;
  } catch {
    throw new Error('the Redis store needs the ioredis package: npm install ioredis');
  }
  // Auto-pipelining sends the commands issued in one turn of the event loop in one write (reads and puts of many runs
  // at once share a round trip); appends go further and share one script call (group-commit.ts).
  const redis = new RedisClass(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
  });
  // ioredis reconnects by itself and reports each failure as an 'error' event; the failing command reports it too.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${url}: ${errorMessage(error)}`);
  }
  const store = new RedisStore(redis, options);
  // Opening sweeps: records that came due while no process was told of a finished item go now.
  await store.expire([]);
  return store;
}

/** An AgentStore in Redis, shared by every process given the same server and prefix. */
export class RedisStore implements AgentStore {
  readonly kind = 'redis';
  readonly #redis: Scripted;
  readonly #prefix: string;
  readonly #reader: StreamReader;
  /**
   * Appends, committed in batches: one script call runs a batch in order, each append answered once Redis has run
   * it. A batch that fails (the connection dropped) fails every append in it; Redis may have run it, as it may have
   * run a single append whose answer was lost.
   */
  readonly #appends: GroupCommit<string, number | undefined>;
  readonly #retainMs: number;
  readonly #now: () => number;

  constructor(redis: Redis, options: RedisStoreOptions = {}) {
    redis.defineCommand('agentprotoPut', { numberOfKeys: 3, lua: PUT });
    redis.defineCommand('agentprotoAppend', { numberOfKeys: 0, lua: APPEND });
    redis.defineCommand('agentprotoDelete', { numberOfKeys: 2, lua: DELETE });
    redis.defineCommand('agentprotoList', { numberOfKeys: 1, lua: LIST });
    // sound: the four defineCommand calls above give the client these methods.
    this.#redis = redis as Scripted;
    this.#prefix = options.prefix ?? 'agentproto:';
    this.#reader = new StreamReader(redis, options.blockMs ?? 5000);
    this.#retainMs = options.retainFinishedMs ?? DEFAULT_RETAIN_FINISHED_MS;
    this.#now = options.now ?? Date.now;
    this.#appends = new GroupCommit(
      async (batch: readonly string[]) =>
        (await this.#redis.agentprotoAppend(this.#prefix, batch.join(''))).map((id) =>
          id < 0 ? undefined : id,
        ),
      MAX_BATCH,
    );
  }

  // Names are escaped so that no collection or id can reach into another one's keys.
  #key(kind: string, ...parts: string[]): string {
    return `${this.#prefix}${kind}:${parts.map(encodeURIComponent).join(':')}`;
  }

  async get<T>(collection: string, id: string): Promise<StoredRecord<T> | undefined> {
    const [value, rev] = await this.#redis.hmget(this.#key('rec', collection, id), 'value', 'rev');
    // sound: the record is the JSON of a value of the caller's type T (a store gives back what it was given).
    return value == null ? undefined : { value: JSON.parse(value) as T, rev: Number(rev) };
  }

  async put<T>(
    collection: string,
    id: string,
    value: T,
    expectRev?: number,
    index?: IndexKeys,
  ): Promise<number | undefined> {
    const rev = await this.#redis.agentprotoPut(
      this.#key('rec', collection, id),
      this.#key('order', collection),
      this.#key('order-seq', collection),
      JSON.stringify(value),
      expectRev === undefined ? '' : expectRev,
      // Escaped names, so the script can append them to the prefix; '{}' would be an empty Lua table either way.
      index
        ? JSON.stringify(
            Object.fromEntries(Object.entries(index).map(([n, k]) => [encodeURIComponent(n), k])),
          )
        : '',
      this.#indexPrefix(collection),
      id,
    );
    return rev < 0 ? undefined : rev;
  }

  /** The key prefix of a collection's indexes: an escaped index name completes it. */
  #indexPrefix(collection: string): string {
    return `${this.#key('idx', collection)}:`;
  }

  async listByIndex(collection: string, index: string, range: IndexRange = {}): Promise<string[]> {
    if (range.limit === 0) return [];
    const key = this.#indexPrefix(collection) + encodeURIComponent(index);
    const [min, max] = lexBounds(range);
    const members =
      range.limit === undefined
        ? await this.#redis.zrevrangebylex(key, max, min)
        : await this.#redis.zrevrangebylex(key, max, min, 'LIMIT', 0, range.limit);
    return members.map((member) => member.slice(member.indexOf('\0') + 1));
  }

  async countByIndex(collection: string, index: string, range: IndexRange = {}): Promise<number> {
    const [min, max] = lexBounds(range);
    return this.#redis.zlexcount(this.#indexPrefix(collection) + encodeURIComponent(index), min, max);
  }

  async list<T>(collection: string, options: ListOptions = {}): Promise<T[]> {
    const start = options.offset ?? 0;
    if (options.limit === 0) return [];
    // ZRANGE's stop is inclusive, and -1 means the end.
    const stop = options.limit === undefined ? -1 : start + options.limit - 1;
    const values = await this.#redis.agentprotoList(this.#key('order', collection), start, stop);
    // sound: see get.
    return values.flatMap((value) => (value === '' ? [] : [JSON.parse(value) as T]));
  }

  async count(collection: string): Promise<number> {
    return this.#redis.zcard(this.#key('order', collection));
  }

  async delete(collection: string, id: string): Promise<void> {
    await this.#redis.agentprotoDelete(
      this.#key('rec', collection, id),
      this.#key('order', collection),
      this.#indexPrefix(collection),
      id,
    );
  }

  async nextId(counter: string): Promise<number> {
    return this.#redis.incr(this.#key('counter', counter));
  }

  append<T>(log: string, value: T, guard?: AppendGuard | LogGuard): Promise<number | undefined> {
    // The append's three lines of the batch (see APPEND); the log's keys are #key('log', log) and
    // #key('log-seq', log), as the script builds them. Not an async function: the group commit's promise is the
    // answer. A value JSON cannot write is still refused as a rejection.
    let lines: string;
    try {
      const rule = !guard
        ? ''
        : 'lastId' in guard
          ? `l${guard.lastId}`
          : `r${guard.rev} ${this.#key('rec', guard.collection, guard.id)}`;
      lines = `${encodeURIComponent(log)}\n${entryJson(value)}\n${rule}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#appends.add(lines);
  }

  // Retention: a sorted set (`expiring`) of finished items, each scored by when it goes (ms since the epoch), as
  // JSON `["record", collection, id]` or `["log", name]`.
  async expire(items: readonly StoredItem[]): Promise<void> {
    const now = this.#now();
    const at = now + this.#retainMs;
    const schedule = this.#key('expiring');
    await Promise.all(
      items.map((item) =>
        'log' in item
          ? Promise.all([
              this.#redis.zadd(schedule, at, JSON.stringify(['log', item.log])),
              this.#redis.pexpireat(this.#key('log', item.log), at),
              this.#redis.pexpireat(this.#key('log-seq', item.log), at),
            ])
          : this.#redis.zadd(schedule, at, JSON.stringify(['record', item.collection, item.id])),
      ),
    );
    // The sweep: what is due goes (records with their indexes, logs whole), then leaves the schedule. Each step can
    // run twice (two processes sweeping at once) to the same end.
    const due = await this.#redis.zrangebyscore(schedule, '-inf', now, 'LIMIT', 0, SWEEP_LIMIT);
    await Promise.all(
      due.map(async (member) => {
        const [kind, name, id] = parseItem(member);
        if (kind === 'log') await this.#redis.del(this.#key('log', name), this.#key('log-seq', name));
        else if (kind === 'record') await this.delete(name, id);
        await this.#redis.zrem(schedule, member);
      }),
    );
  }

  async read<T>(log: string, afterId: number, limit = 1000): Promise<LogEntry<T>[]> {
    const rows = await this.#redis.xrange(this.#key('log', log), `${afterId + 1}-0`, '+', 'COUNT', limit);
    return rows.map(entryOf<T>);
  }

  async lastId(log: string): Promise<number> {
    return Number((await this.#redis.get(this.#key('log-seq', log))) ?? 0);
  }

  follow<T>(log: string, afterId: number, signal: AbortSignal): AsyncGenerator<LogEntry<T>> {
    const key = this.#key('log', log);
    return followLog<T>(
      (after) => this.read<T>(log, after),
      // sound: a log holds values of the follower's type T, and the reader hands each follower
      // entries parsed from that log alone.
      (listener, from) => this.#reader.add(key, listener as LogListener<unknown>, from),
      afterId,
      signal,
    );
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    await this.#redis.set(
      this.#key('blob', key),
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    const bytes = await this.#redis.getBuffer(this.#key('blob', key));
    return bytes === null ? undefined : new Uint8Array(bytes);
  }

  async close(): Promise<void> {
    await this.#appends.settled();
    await this.#reader.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}

/** A member of the retention schedule as its parts; an unreadable one as parts that name nothing. */
function parseItem(member: string): [string, string, string] {
  try {
    const parts: unknown = JSON.parse(member);
    if (Array.isArray(parts) && parts.every((p) => typeof p === 'string'))
      return [String(parts[0]), String(parts[1] ?? ''), String(parts[2] ?? '')];
  } catch {}
  return ['', '', ''];
}

/** An index range as ZRANGEBYLEX bounds: `[from` included, `(before` left out, `-` and `+` for open ends. */
function lexBounds(range: IndexRange): [string, string] {
  return [
    range.from === undefined ? '-' : `[${range.from}`,
    range.before === undefined ? '+' : `(${range.before}`,
  ];
}

/** A stream entry `[id, [field, value, …]]` as a log entry: the id's first part is ours, the value is field `v`. */
function entryOf<T>([id, fields]: [string, string[]]): LogEntry<T> {
  // sound: field `v` is the JSON of a value of the reader's type T (a store gives back what it was given).
  return { id: Number(id.slice(0, id.indexOf('-'))), value: JSON.parse(fields[1] ?? 'null') as T };
}

interface Followed {
  /** The last stream entry id this reader has seen. */
  cursor: number;
  listeners: Set<LogListener<unknown>>;
}

/**
 * One blocking XREAD over every stream this process follows, on a connection of its own, handing what it reads to
 * the followers of each stream. Following a new stream interrupts the read in progress (CLIENT UNBLOCK) so the next
 * one includes it.
 */
class StreamReader {
  readonly #streams = new Map<string, Followed>();
  readonly #main: Redis;
  readonly #blockMs: number;
  #conn: Redis | undefined;
  #connId: number | undefined;
  #running = false;
  #closed = false;
  /** Bumped whenever the set of streams changes; the read in flight carries the generation it was built from. */
  #generation = 0;
  #inFlight: number | undefined;

  constructor(main: Redis, blockMs: number) {
    this.#main = main;
    this.#blockMs = blockMs;
  }

  add(key: string, listener: LogListener<unknown>, from: number): () => void {
    let followed = this.#streams.get(key);
    if (!followed) {
      followed = { cursor: from, listeners: new Set() };
      this.#streams.set(key, followed);
      this.#generation++;
      this.#start();
      void this.#interrupt();
    }
    // A follower behind the reader's cursor reads the entries in between itself (followLog reads before it waits).
    followed.listeners.add(listener);
    const own = followed;
    return () => {
      own.listeners.delete(listener);
      if (own.listeners.size === 0 && this.#streams.get(key) === own) {
        this.#streams.delete(key);
        this.#generation++;
      }
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#streams.clear();
    await this.#interrupt();
    this.#conn?.disconnect();
  }

  #start(): void {
    if (this.#running || this.#closed) return;
    this.#running = true;
    void this.#loop().finally(() => {
      this.#running = false;
      // A stream followed while the loop was winding down starts it again.
      if (this.#streams.size > 0 && !this.#closed) this.#start();
    });
  }

  async #loop(): Promise<void> {
    if (!this.#conn) {
      // The blocking read has its connection to itself: nothing to pipeline behind it.
      this.#conn = this.#main.duplicate({ enableAutoPipelining: false });
      this.#conn.on('error', () => {});
      // A reconnection is a new client with a new id.
      this.#conn.on('ready', () => {
        this.#connId = undefined;
      });
    }
    const conn = this.#conn;
    while (this.#streams.size > 0 && !this.#closed) {
      try {
        this.#connId ??= await conn.client('ID');
        const keys = [...this.#streams.keys()];
        const cursors = keys.map((k) => `${this.#streams.get(k)?.cursor ?? 0}-0`);
        this.#inFlight = this.#generation;
        const result = await conn.xread(
          'COUNT',
          1000,
          'BLOCK',
          this.#blockMs,
          'STREAMS',
          ...keys,
          ...cursors,
        );
        this.#inFlight = undefined;
        for (const [key, rows] of result ?? []) {
          const followed = this.#streams.get(key);
          if (!followed || rows.length === 0) continue;
          const entries = rows.map(entryOf<unknown>).filter((e) => e.id > followed.cursor);
          const last = entries.at(-1);
          if (!last) continue;
          followed.cursor = last.id;
          for (const listener of followed.listeners) listener(entries);
        }
      } catch {
        this.#inFlight = undefined;
        if (this.#closed) return;
        // The connection dropped or is being re-established: followers are told to read for themselves, and the
        // reader tries again shortly.
        for (const followed of this.#streams.values())
          for (const listener of followed.listeners) listener(undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * Ends the blocking read in flight if it was built before the latest change. The UNBLOCK may overtake the read on
   * its way to the server (they travel on two connections): then it is sent again, a few times at most, until the read
   * it meant has ended.
   */
  async #interrupt(): Promise<void> {
    const wanted = this.#generation;
    for (let attempt = 0; attempt < 50; attempt++) {
      if (this.#inFlight === undefined || this.#inFlight >= wanted || this.#connId === undefined) return;
      const unblocked = await this.#main.client('UNBLOCK', this.#connId).catch(() => 0);
      if (unblocked === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}
