import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../../../test/support/typed.js';
import type { NodeResponse } from '../streams/write-node.js';
import type { Validator } from '../validation.js';
import { createJsonRpcApp, type RpcId } from './rpc-app.js';
import { JsonRpcError } from './rpc-error.js';

// A streaming method's events, byte for byte, on both write paths (a web stream, and straight to a Node response):
// each event's text is JSON.stringify of its response object, though the writer builds it around the item's own JSON.

/** A Node response in memory, as @hono/node-server hands it to the app in `env.outgoing`. */
class MemoryResponse extends EventEmitter implements NodeResponse {
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  text = '';
  readonly ended = new Promise<void>((resolve) => this.once('close', () => resolve()));
  writeHead() {
    return this;
  }
  write(chunk: string) {
    this.headersSent = true;
    this.text += chunk;
    return true;
  }
  end(chunk?: string) {
    if (chunk !== undefined) this.text += chunk;
    this.writableEnded = true;
    this.emit('close');
  }
}

const numberResult: Validator = (value: unknown): value is number => typeof value === 'number';

/** The text of a stream of these response objects. */
const sse = (responses: object[]) => responses.map((r) => `data: ${JSON.stringify(r)}\n\n`).join('');

type Case = {
  /** The request's id, and what the method yields (a function is called in its turn: it throws, or gives an item). */
  given: { id: RpcId; items: unknown[]; validate?: boolean };
  /** The stream's text, what onError heard, and whether the web stream errors instead of ending. */
  want: { text: string; faults: number; webErrors?: boolean };
};

const broke = new JsonRpcError(-32099, 'broke');
const cases: Array<[string, Case]> = [
  [
    'ids > a string id with quotes, a line separator and non-ASCII letters is written as JSON writes it',
    {
      given: { id: 'a"b\u2028é', items: [1, { x: 'y' }, 'text'] },
      want: {
        text: sse([1, { x: 'y' }, 'text'].map((result) => ({ jsonrpc: '2.0', id: 'a"b\u2028é', result }))),
        faults: 0,
      },
    },
  ],
  [
    'ids > a null id and a number id',
    {
      given: { id: null, items: [[1, 2]] },
      want: { text: sse([{ jsonrpc: '2.0', id: null, result: [1, 2] }]), faults: 0 },
    },
  ],
  [
    'items > an item JSON leaves out has no result member; one with toJSON is written as it says',
    {
      given: { id: 7, items: [undefined, new Date(0), { a: undefined, b: 1 }] },
      want: {
        text: sse([
          { jsonrpc: '2.0', id: 7 },
          { jsonrpc: '2.0', id: 7, result: '1970-01-01T00:00:00.000Z' },
          { jsonrpc: '2.0', id: 7, result: { b: 1 } },
        ]),
        faults: 0,
      },
    },
  ],
  [
    'errors > a JsonRpcError mid-stream is the last event, and no fault',
    {
      given: {
        id: 'j',
        items: [
          1,
          () => {
            throw broke;
          },
        ],
      },
      want: {
        text: sse([
          { jsonrpc: '2.0', id: 'j', result: 1 },
          { jsonrpc: '2.0', id: 'j', error: { code: -32099, message: 'broke' } },
        ]),
        faults: 0,
      },
    },
  ],
  [
    'errors > any other throw mid-stream is an internal error as the last event, told to onError once',
    {
      given: {
        id: 'e',
        items: [
          1,
          () => {
            throw new Error('secret detail');
          },
        ],
      },
      want: {
        text: sse([
          { jsonrpc: '2.0', id: 'e', result: 1 },
          { jsonrpc: '2.0', id: 'e', error: { code: -32603, message: 'Internal error' } },
        ]),
        faults: 1,
      },
    },
  ],
  [
    'errors > an item that breaks the result schema ends the stream with an internal error (results checked)',
    {
      given: { id: 'v', items: [1, 'two', 3], validate: true },
      want: {
        text: sse([
          { jsonrpc: '2.0', id: 'v', result: 1 },
          {
            jsonrpc: '2.0',
            id: 'v',
            error: { code: -32603, message: 'Internal error: the agent gave an invalid result' },
          },
        ]),
        faults: 1,
      },
    },
  ],
  [
    'errors > an item JSON cannot hold ends the stream with no error event, told to onError',
    {
      given: { id: 'b', items: [1, 2n, 3] },
      want: { text: sse([{ jsonrpc: '2.0', id: 'b', result: 1 }]), faults: 1, webErrors: true },
    },
  ],
];

function appFor(given: Case['given'], faults: string[]) {
  return createJsonRpcApp(
    [
      {
        name: 'watch',
        paramStructure: 'by-name',
        paramNames: [],
        params: (_v: unknown): _v is unknown => true,
        result: numberResult,
        stream: 'sse',
      },
    ],
    {
      watch: () =>
        (async function* () {
          for (const item of given.items) yield typeof item === 'function' ? item() : item;
        })(),
    },
    {
      validateResults: given.validate ?? false,
      onError: (error, method) => faults.push(`${method}: ${messageOf(error)}`),
    },
  );
}

const request = (id: RpcId) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'watch' }),
});

describe('createJsonRpcApp > streamed responses', () => {
  it.each(cases)('node path > %s', async (_name, { given, want }) => {
    const faults: string[] = [];
    const outgoing = new MemoryResponse();
    await appFor(given, faults).request('/', request(given.id), { outgoing });
    await outgoing.ended;
    expect(outgoing.text).toBe(want.text);
    expect(faults).toHaveLength(want.faults);
  });

  it.each(cases)('web path > %s', async (_name, { given, want }) => {
    const faults: string[] = [];
    const res = await appFor(given, faults).request('/', request(given.id));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    if (want.webErrors) {
      // The web stream errors, unreported, as it always has for an item it cannot write.
      await expect(res.text()).rejects.toThrow();
      return;
    }
    expect(await res.text()).toBe(want.text);
    expect(faults).toHaveLength(want.faults);
  });
});
