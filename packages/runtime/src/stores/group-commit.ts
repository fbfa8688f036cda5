// The group-commit loop the durable stores share (SQLite: one transaction per batch; Redis: one script call). With
// nothing in flight, a write goes at once, alone: no timer, no window, a lone write waits for nobody. Writes made while
// a batch is in flight wait for it, then go together as the next batch. Each is answered once its batch is committed,
// so the store's promise for one write (answered means stored) holds for every write of a batch.

/**
 * How many microtask turns the loop leaves for a batch's answers to be delivered before it looks for the next batch.
 * A caller awaiting a write through a few async functions of its own makes its next write a few turns after the
 * answer; those writes join the next batch instead of each going alone. Turns cost no time, only queued callbacks: a
 * writer appending one entry after another still has each committed the moment it asks.
 */
export const ANSWER_TURNS = 8;

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** A queue of writes committed in batches by `commit`, which answers one result per item, in order. */
export class GroupCommit<I, R> {
  #queue: Pending<I, R>[] = [];
  /** Whether the loop runs; set and cleared inside it, so a write queued as it ends is never left behind. */
  #running = false;
  #loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly commit: (batch: readonly I[]) => Promise<readonly R[]> | readonly R[],
    /** Most items one batch carries. */
    private readonly maxBatch = Number.POSITIVE_INFINITY,
  ) {}

  /** Queues a write; answers its result once its batch is committed, or the batch's error. */
  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#running) this.#loop = this.#run();
    });
  }

  /** Settles once every write queued so far is answered. */
  async settled(): Promise<void> {
    while (this.#running) await this.#loop;
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      // The queue is checked and the flag cleared with no await in between: a write queued after the last check
      // finds the loop stopped and starts it again.
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, this.maxBatch);
        try {
          // The first batch is committed in the call to add that starts the loop (commit runs before the first await).
          const results = await this.commit(batch.map((p) => p.item));
          batch.forEach((p, i) => {
            // sound: commit answers one result per item of the batch.
            p.resolve(results[i] as R);
          });
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
        for (let turn = 0; turn < ANSWER_TURNS; turn++) await undefined;
      }
    } finally {
      this.#running = false;
    }
  }
}
