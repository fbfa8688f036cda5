import { FrameReader, parseFrame } from '@agentproto/runtime/contract';
import { describe, expect, it } from 'vitest';
import { SseItems } from './sse-items.js';

/** An item as the proxy's checks see it. */
type Seen =
  | { index: number; ok: true; value: unknown }
  | { index: number; ok: false; error: string; data: string; tooLong: number | undefined };

/** The items SseItems reads from `chunks`. */
function read(chunks: readonly Buffer[], limit: number): Seen[] {
  const out: Seen[] = [];
  const reader = new SseItems(limit, {
    itemValue: (index, value) => void out.push({ index, ok: true, value }),
    itemFailed: (frame) =>
      void out.push({
        index: frame.index,
        ok: false,
        error: frame.ok ? '' : frame.error,
        data: frame.data,
        tooLong: frame.tooLong,
      }),
  });
  // Each chunk sits inside a larger buffer, as a body does inside a read: bytes around it are not the stream's.
  for (const chunk of chunks) {
    const framed = Buffer.concat([Buffer.from('\r\n7\r\n'), chunk, Buffer.from('\r\nx\n\r')]);
    reader.push(framed, 5, 5 + chunk.length);
  }
  reader.end();
  return out;
}

/** The items the runtime's FrameReader reads (what `agentproto validate` sees), less the events without data. */
function reference(chunks: readonly Buffer[], limit: number): Seen[] {
  const out: Seen[] = [];
  const reader = new FrameReader(
    'sse',
    (frame) => {
      if (frame.tooLong === undefined && frame.data === '') return;
      const parsed = parseFrame(frame);
      out.push(
        parsed.ok
          ? { index: parsed.index, ok: true, value: parsed.value }
          : {
              index: parsed.index,
              ok: false,
              error: parsed.error,
              data: parsed.data,
              tooLong: parsed.tooLong,
            },
      );
    },
    limit,
  );
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return out;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LIMIT = 40;
const ENDS = ['\n', '\r\n', '\r'];
/** Lines of every kind the EventSource parsing tells apart, UTF-8 of every length, and lines past the limit. */
const LINES: readonly (Buffer | string)[] = [
  'data: {"type":"text","delta":"word "}',
  'data:{"n":1}',
  'data:  {"n":2}',
  'data: [1,',
  'data: 2]',
  'data',
  'data:',
  'data: ',
  'data: "é😀中"',
  'data: not json',
  ': a comment',
  ':',
  'event: message',
  'id: 7',
  'retry: 100',
  'datax: 1',
  'data : 1',
  'Data: 1',
  'dat',
  'x',
  `data: "${'a'.repeat(60)}"`,
  `data: "${'中'.repeat(20)}"`,
  `data: "${'中'.repeat(45)}"`,
  `: ${'😀'.repeat(30)}`,
  Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0x22, 0xe2, 0x82, 0x22]),
  Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0xc3]),
  '',
  '',
  '',
];

/** A stream of random lines and line ends, cut at random bytes (within characters and CRLFs too). */
function randomStream(next: () => number): Buffer[] {
  const parts: Buffer[] = [];
  if (next() < 0.2) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const count = 1 + Math.floor(next() * 30);
  for (let i = 0; i < count; i++) {
    const line = LINES[Math.floor(next() * LINES.length)] ?? '';
    parts.push(typeof line === 'string' ? Buffer.from(line) : line);
    if (i < count - 1 || next() < 0.8)
      parts.push(Buffer.from(ENDS[Math.floor(next() * ENDS.length)] ?? '\n'));
  }
  const bytes = Buffer.concat(parts);
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    // Now and then an empty chunk (a read of nothing), which must change nothing, after a CR too.
    if (next() < 0.1) chunks.push(bytes.subarray(at, at));
    const size = next() < 0.3 ? 1 : 1 + Math.floor(next() * 24);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('SseItems', () => {
  it('reads the items FrameReader reads: same indexes, values, complaints, however the bytes are cut', () => {
    const next = random(39);
    let items = 0;
    for (let run = 0; run < 3000; run++) {
      const chunks = randomStream(next);
      const expected = reference(chunks, LIMIT);
      items += expected.length;
      expect(read(chunks, LIMIT), Buffer.concat(chunks).toString('latin1')).toEqual(expected);
    }
    // The streams made items of every kind.
    expect(items).toBeGreaterThan(3000);
  });

  it('joins data lines, takes CR, LF and CRLF as line ends, and drops a byte order mark at the start', () => {
    const chunks = [Buffer.from('\ufeffdata: [1,\r\ndata: 2]\r\rdata: 3\n\n: x\n\ndata: "\ufeff"\n\n')];
    expect(read(chunks, 100)).toEqual([
      { index: 1, ok: true, value: [1, 2] },
      { index: 2, ok: true, value: 3 },
      { index: 3, ok: true, value: '\ufeff' },
    ]);
  });

  it('keeps no more than a line of the limit: a longer one, cut in many chunks, is an item too long', () => {
    const long = Buffer.from(`data: "${'x'.repeat(10_000)}"\n\ndata: 1\n\n`);
    const chunks: Buffer[] = [];
    for (let at = 0; at < long.length; at += 7) chunks.push(long.subarray(at, at + 7));
    const seen = read(chunks, 100);
    expect(seen).toEqual(reference(chunks, 100));
    expect(seen[0]).toMatchObject({ index: 1, ok: false, tooLong: 10_008 });
    expect(seen[1]).toEqual({ index: 2, ok: true, value: 1 });
  });

  it('an empty chunk between a CR and its LF changes nothing', () => {
    const chunks = [Buffer.from('data: 1\r'), Buffer.alloc(0), Buffer.from('\ndata: 2\n\n')];
    // One event of two data lines (CR LF is one line end), not two events; FrameReader reads the same.
    expect(read(chunks, 100)).toEqual(reference(chunks, 100));
    expect(read(chunks, 100)).toEqual([
      { index: 1, ok: false, error: expect.stringContaining('not JSON'), data: '1\n2', tooLong: undefined },
    ]);
  });

  it('dispatches nothing of an event the stream ends in', () => {
    expect(read([Buffer.from('data: 1\n\ndata: 2\n')], 100)).toEqual([{ index: 1, ok: true, value: 1 }]);
  });
});
