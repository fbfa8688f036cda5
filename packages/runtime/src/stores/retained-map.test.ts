import { describe, expect, it } from 'vitest';
import { RetainedMap } from './retained-map.js';

describe('retained map > entries in use', () => {
  it('passes over entries in use once, not on every write, and lets them go once they are free', () => {
    const busy = new Set(Array.from({ length: 200 }, (_, i) => `busy${i}`));
    let asked = 0;
    const map = new RetainedMap<string, number>(
      { maxEntries: 10, maxWeight: Number.POSITIVE_INFINITY },
      (_v, k) => {
        asked++;
        return !busy.has(k);
      },
    );
    // The busy entries come first, so every later write finds them at the front of the map.
    for (const key of busy) map.set(key, 0);
    asked = 0;
    for (let i = 0; i < 200; i++) map.set(`free${i}`, i);
    // Every busy entry is kept, over the count, with the newest free ones.
    for (const key of busy) expect(map.has(key)).toBe(true);
    expect(map.has('free199')).toBe(true);
    expect(map.has('free0')).toBe(false);
    // Asking about each busy entry on every write would be 200 × 200 questions; at most 16 of them are asked per write.
    expect(asked).toBeLessThan(200 * 20);
    // Freed, they go at the next writes, oldest first.
    busy.clear();
    map.set('later', 1);
    expect(map.has('busy0')).toBe(false);
    expect(map.size).toBe(10);
  });

  it('counts the age of an entry found in use from when it was found', () => {
    let now = 0;
    let inUse = true;
    const map = new RetainedMap<string, number>(
      { maxEntries: 10, maxWeight: Number.POSITIVE_INFINITY, maxAgeMs: 100 },
      (_v, k) => k !== 'old' || !inUse,
      undefined,
      () => now,
    );
    map.set('old', 1);
    now = 150;
    map.set('a', 2);
    // Past its age but in use: kept, and its age now counts from 150.
    expect(map.has('old')).toBe(true);
    inUse = false;
    now = 200;
    map.set('b', 3);
    expect(map.has('old')).toBe(true);
    now = 260;
    map.set('c', 4);
    expect(map.has('old')).toBe(false);
    expect(map.has('a')).toBe(false);
  });
});
