import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A commit whose batches are answered when the test says so: each batch answers its items doubled. */
function heldCommit() {
  const batches: number[][] = [];
  const answers: Array<() => void> = [];
  const commit = (batch: readonly number[]) =>
    new Promise<number[]>((resolve) => {
      batches.push([...batch]);
      answers.push(() => resolve(batch.map((n) => n * 2)));
    });
  return { batches, answers, commit };
}

/** Lets every queued callback run (the loop's turns included). */
const drain = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit > batches', () => {
  it('a write alone goes at once; the writes made while its batch runs wait for it, then go as one batch', async () => {
    const held = heldCommit();
    const group = new GroupCommit(held.commit);
    const results = [0, 1, 2, 3, 4].map((n) => group.add(n));
    await drain();
    expect(held.batches).toEqual([[0]]);
    held.answers.shift()?.();
    await drain();
    expect(held.batches).toEqual([[0], [1, 2, 3, 4]]);
    held.answers.shift()?.();
    expect(await Promise.all(results)).toEqual([0, 2, 4, 6, 8]);
    await group.settled();
  });

  it('a failed batch fails its own writes only', async () => {
    let calls = 0;
    const group = new GroupCommit(async (batch: readonly string[]) => {
      if (calls++ === 0) throw new Error('connection lost');
      return batch.map((s) => s.toUpperCase());
    });
    const first = group.add('a');
    const rest = [group.add('b'), group.add('c')];
    await expect(first).rejects.toThrow('connection lost');
    expect(await Promise.all(rest)).toEqual(['B', 'C']);
  });
});
