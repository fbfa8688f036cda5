import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIECES_DIR, pieceMemo } from './piece-memo.js';
import { RUN_CACHE_DIR } from './unit-records.js';

describe('generate > the cache of pieces of parts', () => {
  const root = () => mkdtempSync(path.join(tmpdir(), 'agentproto-pieces-'));
  const counting = (text: string) => {
    let calls = 0;
    const make = () => {
      calls++;
      return text;
    };
    return { make, calls: () => calls };
  };

  it('the same generator, name and input: the kept text, not made again; anything else: made', () => {
    const dir = root();
    const first = pieceMemo(dir, 'g1');
    const a = counting('A');
    expect(first.recall('validators', { x: 1 }, a.make)).toBe('A');
    expect(first.made()).toBe(1);
    // A later run of the same generator.
    const again = pieceMemo(dir, 'g1');
    expect(again.recall('validators', { x: 1 }, a.make)).toBe('A');
    expect(a.calls()).toBe(1);
    expect(again.made()).toBe(0);
    for (const [memo, name, input] of [
      [again, 'validators', { x: 2 }],
      [again, 'translation', { x: 1 }],
      [pieceMemo(dir, 'g2'), 'validators', { x: 1 }],
    ] as const) {
      const b = counting('B');
      expect(memo.recall(name, input, b.make)).toBe('B');
      expect(b.calls()).toBe(1);
    }
  });

  it('a record that does not hold its key is made again; a make that throws keeps nothing', () => {
    const dir = root();
    const memo = pieceMemo(dir, 'g');
    memo.recall('p', 1, () => 'kept');
    const folder = path.join(dir, RUN_CACHE_DIR, PIECES_DIR);
    const [file] = readdirSync(folder);
    if (!file) throw new Error('no piece written');
    for (const bad of [
      '{"key":"other","text":"x"}',
      '{"key":',
      `{"key":"${file.replace('.json', '')}","text":1}`,
    ]) {
      writeFileSync(path.join(folder, file), bad);
      expect(memo.recall('p', 1, () => 'again')).toBe('again');
    }
    expect(() =>
      memo.recall('q', 1, () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(readdirSync(folder)).toEqual([file]);
  });
});
