import { describe, expect, it } from 'vitest';
import { writeStream } from './write-stream.js';

async function* items<T>(values: T[], onClose?: () => void): AsyncGenerator<T> {
  try {
    for (const v of values) yield v;
  } finally {
    onClose?.();
  }
}

describe('writeStream', () => {
  it('framing > sse puts each item in one data: field; ndjson on one line', async () => {
    expect(await new Response(writeStream(items([{ a: 1 }, 'x\ny']), 'sse')).text()).toBe(
      'data: {"a":1}\n\ndata: "x\\ny"\n\n',
    );
    expect(await new Response(writeStream(items([{ a: 1 }, 2]), 'ndjson')).text()).toBe('{"a":1}\n2\n');
  });

  it('check > an item that breaks it ends the stream there, and the check alone reports it', async () => {
    const errors: unknown[] = [];
    let closed = false;
    const stream = writeStream(
      items([1, 2, 'three', 4], () => {
        closed = true;
      }),
      'ndjson',
      {
        check: (item) => (typeof item === 'number' ? undefined : 'must be a number'),
        onError: (e) => errors.push(e),
      },
    );
    expect(await new Response(stream).text()).toBe('1\n2\n');
    expect(errors).toEqual([]);
    expect(closed).toBe(true);
  });

  it('source failure > a throwing producer ends the stream and is reported', async () => {
    const errors: unknown[] = [];
    async function* failing() {
      yield 1;
      throw new Error('boom');
    }
    expect(
      await new Response(writeStream(failing(), 'ndjson', { onError: (e) => errors.push(e) })).text(),
    ).toBe('1\n');
    expect(String(errors[0])).toMatch(/boom/);
  });

  const endCases: Array<[string, { given: () => AsyncIterable<unknown>; want: string }]> = [
    [
      'end item > a broken item is followed by the protocol error item, with the check message',
      { given: () => items([1, 'two', 3]), want: '1\n{"error":"must be a number"}\n' },
    ],
    [
      'end item > a throwing producer ends with the protocol error item',
      {
        given: async function* () {
          yield 1;
          throw new Error('boom');
        },
        want: '1\n{"error":"the agent failed while streaming"}\n',
      },
    ],
    ['end item > a stream that finishes has none', { given: () => items([1, 2]), want: '1\n2\n' }],
  ];
  it.each(endCases)('%s', async (_, { given, want }) => {
    const stream = writeStream(given(), 'ndjson', {
      check: (item) => (typeof item === 'number' ? undefined : 'must be a number'),
      onError: () => {},
      endWith: (reason) => ({ error: reason }),
    });
    expect(await new Response(stream).text()).toBe(want);
  });

  it('cancel > a reader that goes away aborts the producer and closes it', async () => {
    const abort = new AbortController();
    let closed = false;
    async function* slow() {
      try {
        for (let i = 0; i < 5; i++) {
          yield i;
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        closed = true;
      }
    }
    const reader = writeStream(slow(), 'ndjson', { abort }).getReader();
    await reader.read();
    await reader.cancel();
    expect(abort.signal.aborted).toBe(true);
    expect(closed).toBe(true);
  });

  it('batching > items ready together go out as one chunk; a slow item does not hold back the ones before it', async () => {
    async function* bursts() {
      yield 1;
      yield 2;
      await new Promise((r) => setTimeout(r, 20));
      yield 3;
    }
    const reader = writeStream(bursts(), 'ndjson').getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(decoder.decode(r.value));
    expect(chunks).toEqual(['1\n2\n', '3\n']);
  });
});
