import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseYamlWithLocator } from '@agentproto/runtime/locate';
import { describe, expect, it } from 'vitest';
import { pieceMemo } from './piece-memo.js';
import { RUN_CACHE_DIR } from './unit-records.js';
import { cachedYamlParser, YAML_DIR } from './yaml-values.js';

const TEXT =
  'openapi: 3.1.0\ninfo:\n  title: Tasks\n  version: "1"\npaths:\n  /tasks:\n    get:\n      operationId: list\n';

describe('generate > the cache of YAML values', () => {
  const root = () => mkdtempSync(path.join(tmpdir(), 'agentproto-yaml-'));
  const kept = (dir: string) => readdirSync(path.join(dir, RUN_CACHE_DIR, YAML_DIR)).length;

  it("a later run takes the parser's value from the cache, and its locator still finds lines", () => {
    const dir = root();
    const parser = parseYamlWithLocator(TEXT);
    const first = pieceMemo(dir, 'g1', YAML_DIR);
    expect(cachedYamlParser(first)(TEXT).value).toEqual(parser.value);
    expect(first.made()).toBe(1);
    const again = pieceMemo(dir, 'g1', YAML_DIR);
    const hit = cachedYamlParser(again)(TEXT);
    expect(again.made()).toBe(0);
    expect(hit.value).toEqual(parser.value);
    for (const pointer of ['/info/title', '/paths/~1tasks/get/operationId', '/nowhere'])
      expect(hit.locate(pointer)).toBe(parser.locate(pointer));
    // Another text is another value, never the kept one.
    const other = TEXT.replace('Tasks', 'Runs');
    expect(cachedYamlParser(again)(other).value).toEqual(parseYamlWithLocator(other).value);
    expect(again.made()).toBe(1);
    expect(kept(dir)).toBe(2);
  });

  it('a text the parser refuses throws its error every time, and nothing is kept', () => {
    const dir = root();
    const broken = 'a: [1, 2\nb: 3\n';
    const message = (() => {
      try {
        parseYamlWithLocator(broken);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'parsed';
    })();
    expect(message).not.toBe('parsed');
    const memo = pieceMemo(dir, 'g1', YAML_DIR);
    for (let i = 0; i < 2; i++) expect(() => cachedYamlParser(memo)(broken)).toThrow(message);
    expect(memo.made()).toBe(0);
  });

  it('a value JSON cannot carry (.nan, .inf, -0) is the parser’s on every run', () => {
    const dir = root();
    const text = 'a: .nan\nb: -.inf\nc: -0\nd: [1, "x"]\n';
    for (const memo of [pieceMemo(dir, 'g1', YAML_DIR), pieceMemo(dir, 'g1', YAML_DIR)]) {
      const { value } = cachedYamlParser(memo)(text);
      expect(value).toEqual({ a: Number.NaN, b: Number.NEGATIVE_INFINITY, c: -0, d: [1, 'x'] });
      const object: unknown = value;
      if (typeof object !== 'object' || object === null || !('c' in object)) throw new Error('no c');
      expect(Object.is(object.c, -0)).toBe(true);
    }
  });
});
