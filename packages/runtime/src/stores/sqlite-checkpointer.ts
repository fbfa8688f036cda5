// Checkpoints of a SQLite store's WAL on a thread of their own. A checkpoint copies committed transactions from the WAL
// into the database file and, with `synchronous` NORMAL or FULL, waits for the disk twice (fsync of the WAL, then of
// the file). Run by SQLite itself (wal_autocheckpoint) it happens inside a commit, on the event loop: many runs
// appending at once waited for those syncs. Here a second connection, in a worker thread, checkpoints in PASSIVE mode
// (it never waits for the writer, nor the writer for it), and the store's own checkpointing stays as a backstop.
// Durability does not change: an append is answered once its transaction is in the WAL, as before; a checkpoint only
// moves what is already committed.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Writes (log entries, records) after which the worker checkpoints: counted in writes, not commits, so that a group
 * commit of 100 appends and 100 commits of one append each bring the next checkpoint equally near (a commit of one
 * write adds a page or two to the WAL, one of 100 concurrent runs about 46): about 2,800 pages for runs appending at
 * once. A writer committing one append at a time reaches the store's own threshold (10,000 pages) first, as before.
 */
export const CHECKPOINT_EVERY_WRITES = 6000;
/** Milliseconds after which the worker checkpoints whatever was committed since its last checkpoint. */
export const CHECKPOINT_EVERY_MS = 1000;

// The worker's code, run as a CommonJS script (eval). Slot 0 of the shared counters counts writes; slot 1 asks the
// worker to stop. It sleeps on slot 0 (Atomics.wait, allowed in a worker), waking once a second when idle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const slots = new Int32Array(workerData.slots);
let done = 0;
while (Atomics.load(slots, 1) === 0) {
  const now = Atomics.load(slots, 0);
  if (now - done < workerData.every) {
    // Fewer than 'every' writes since the last checkpoint: sleep until the writer rings (each time its count passes
    // a multiple of 'every', or to stop) or 'ms' pass, then checkpoint whatever there is.
    const woke = Atomics.wait(slots, 0, now, workerData.ms);
    if (woke !== 'timed-out' && Atomics.load(slots, 0) - done < workerData.every) continue;
    if (Atomics.load(slots, 0) === done) continue;
  }
  done = Atomics.load(slots, 0);
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (workerData.report) parentPort.postMessage(result);
  } catch {}
}
db.close();
`;

/** What `PRAGMA wal_checkpoint` answers: whether it was blocked, frames in the WAL, frames copied to the file. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** A running checkpoint worker: tell it of each commit, stop it when the store closes. */
export interface Checkpointer {
  /** Counts the writes of one commit (an atomic add: no message, no event-loop work). */
  committed(writes: number): void;
  /** Stops the worker and waits for it to close its connection. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing the WAL of the database file at `file` on a worker thread; undefined when better-sqlite3
 * cannot be found from here (the store then keeps SQLite's own checkpointing alone).
 */
export function startCheckpointer(
  file: string,
  /** Told of each checkpoint (SQLite's answer: frames in the WAL, frames copied); for tests. */
  onCheckpoint?: (result: CheckpointResult) => void,
): Checkpointer | undefined {
  let driver: string;
  try {
    driver = createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return undefined;
  }
  const slots = new Int32Array(new SharedArrayBuffer(8));
  // Started at the first checkpoint due: a store that writes little (a test, a CLI call) never starts a thread, and
  // SQLite's own checkpointing is enough for it.
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = () => {
    const started = new Worker(WORKER, {
      eval: true,
      workerData: {
        driver,
        file,
        slots: slots.buffer,
        every: CHECKPOINT_EVERY_WRITES,
        ms: CHECKPOINT_EVERY_MS,
        report: onCheckpoint !== undefined,
      },
    });
    // The worker never keeps the process alive, and a failure of it (the file gone) leaves SQLite's own
    // checkpointing.
    started.unref();
    started.on('error', () => {});
    if (onCheckpoint) started.on('message', (result: CheckpointResult) => onCheckpoint(result));
    exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    return started;
  };
  let stopped = false;
  return {
    committed(writes) {
      const before = Atomics.add(slots, 0, writes);
      const after = before + writes;
      // The worker is woken only when the count passes a multiple of CHECKPOINT_EVERY_WRITES: a writer committing
      // one append at a time does not wake another thread each time.
      if (Math.floor(after / CHECKPOINT_EVERY_WRITES) === Math.floor(before / CHECKPOINT_EVERY_WRITES))
        return;
      if (worker) Atomics.notify(slots, 0);
      else if (!stopped) worker = start();
    },
    async stop() {
      stopped = true;
      if (!worker) return;
      // Kept alive until it has closed its connection.
      worker.ref();
      Atomics.store(slots, 1, 1);
      Atomics.notify(slots, 0);
      await exited;
    },
  };
}
