import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ParsedFrame } from '../streams/read-frames.js';
import type { StreamIssue } from '../streams/stream-check.js';
import { CheckFailure, CheckSkipped, type StreamedExchange } from './suite.js';
import {
  type CheckedExchange,
  expectBody,
  expectContentType,
  expectEventStream,
  expectRpcError,
  expectRpcResult,
  expectStatus,
  expectStream,
  expectStreamRules,
  followUp,
  rpcErrorIn,
  streamValues,
} from './suite-expect.js';

/** A result type as a suite names it: `{ id: string }`. */
const TASK = {
  type: 'Task',
  validate: new Ajv({ allErrors: true }).compile({
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
  }),
};

/** An answer as the kit hands it to a check. */
function answer(status: number, text = '', more: Partial<CheckedExchange> = {}): CheckedExchange {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { label: 'GET /tasks/x', status, headers: new Headers(), text, body, problems: [], ...more };
}

const frame = (index: number, value: unknown): ParsedFrame => ({
  index,
  line: index * 2,
  data: '',
  ok: true,
  value,
});

/** A streamed answer: its status, content-type, items and issues. */
function streamed(
  status: number,
  type: string,
  items: ParsedFrame[],
  issues: StreamIssue[] = [],
  text = '',
): StreamedExchange {
  const headers = new Headers(type ? { 'content-type': type } : {});
  return { label: 'POST /process', status, headers, text, body: undefined, items, issues };
}

/** What a helper did: returned, or failed or skipped with its message. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'pass';
  } catch (error) {
    if (error instanceof CheckFailure) return `fail: ${error.message}`;
    if (error instanceof CheckSkipped) return `skip: ${error.message}`;
    throw error;
  }
}

describe('suite expectations', () => {
  const cases: Array<[string, { given: () => unknown; want: string }]> = [
    ['status > the expected one passes', { given: () => expectStatus(answer(404), 404), want: 'pass' }],
    [
      'status > another fails, naming both, the meaning and the body',
      {
        given: () => expectStatus(answer(500, '<h1>Internal\n  error</h1>'), 404, 'TaskNotFound'),
        want: 'fail: GET /tasks/x: answered 500, expected 404 (TaskNotFound): <h1>Internal error</h1>',
      },
    ],
    [
      'status > an empty body adds nothing after the statuses',
      { given: () => expectStatus(answer(200), 409), want: 'fail: GET /tasks/x: answered 200, expected 409' },
    ],
    ['status > any of several', { given: () => expectStatus(answer(409), [200, 409]), want: 'pass' }],
    [
      'status > none of several',
      {
        given: () => expectStatus(answer(500), [200, 409], 'a racing cancel'),
        want: 'fail: GET /tasks/x: answered 500, expected 200 or 409 (a racing cancel)',
      },
    ],
    ['status > 4xx takes any client error', { given: () => expectStatus(answer(422), '4xx'), want: 'pass' }],
    [
      'status > 4xx refuses a success',
      {
        given: () => expectStatus(answer(200, '{}'), '4xx', 'the minimum is 1'),
        want: 'fail: GET /tasks/x: answered 200, expected a 4xx refusal (the minimum is 1): {}',
      },
    ],
    [
      'status > 4xx refuses a server error',
      {
        given: () => expectStatus(answer(500), '4xx'),
        want: 'fail: GET /tasks/x: answered 500, expected a 4xx refusal',
      },
    ],
    [
      'body > the status first',
      {
        given: () => expectBody(answer(500, 'boom', { problems: ['GET /tasks/x: (body): wrong (Task)'] })),
        want: 'fail: GET /tasks/x: answered 500, expected 200: boom',
      },
    ],
    [
      'body > then the schema problems, at most five and how many more',
      {
        given: () => expectBody(answer(200, '{}', { problems: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] })),
        want: 'fail: a; b; c; d; e (and 2 more)',
      },
    ],
    [
      'body > a body that is not JSON, when no type named it',
      {
        given: () => expectBody(answer(200, '<html>')),
        want: 'fail: GET /tasks/x: answered 200 with a body that is neither JSON nor YAML',
      },
    ],
    ['body > another status, asked for', { given: () => expectBody(answer(404, '{}'), 404), want: 'pass' }],
    [
      'body > any of several statuses',
      { given: () => expectBody(answer(201, '{}'), [200, 201]), want: 'pass' },
    ],
    [
      'rpc result > a result of its type passes',
      {
        given: () => expectRpcResult(answer(200, '{"jsonrpc":"2.0","id":1,"result":{"id":"t"}}'), TASK),
        want: 'pass',
      },
    ],
    [
      'rpc result > an error instead names its code and message, and what was expected',
      {
        given: () =>
          expectRpcResult(
            answer(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no task"}}'),
            TASK,
          ),
        want: 'fail: GET /tasks/x: answered error -32001 no task, expected a Task',
      },
    ],
    [
      'rpc result > a result that breaks its type names each problem under /result',
      {
        given: () => expectRpcResult(answer(200, '{"jsonrpc":"2.0","id":1,"result":{"id":7}}'), TASK),
        want: 'fail: GET /tasks/x: /result/id: must be string (Task)',
      },
    ],
    [
      'rpc result > the envelope first: a status other than 200',
      {
        given: () => expectRpcResult(answer(500, 'boom'), TASK),
        want: 'fail: GET /tasks/x: answered 500, expected 200 (a JSON-RPC response): boom',
      },
    ],
    [
      'rpc result > no type named: any result',
      { given: () => expectRpcResult(answer(200, '{"jsonrpc":"2.0","id":1,"result":7}')), want: 'pass' },
    ],
    [
      'rpc error > the expected code passes, whatever the status',
      {
        given: () =>
          expectRpcError(
            answer(404, '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}'),
            -32601,
          ),
        want: 'pass',
      },
    ],
    [
      'rpc error > another code fails, naming the answer and the code expected with its meaning',
      {
        given: () =>
          expectRpcError(
            answer(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32600}}'),
            -32601,
            'MethodNotFound',
          ),
        want: 'fail: GET /tasks/x: answered 200 {"jsonrpc":"2.0","id":1,"error":{"code":-32600}}, expected error -32601 (MethodNotFound)',
      },
    ],
    [
      'rpc error > a success fails',
      {
        given: () => expectRpcError(answer(200, '{"jsonrpc":"2.0","id":1,"result":{}}'), -32602),
        want: 'fail: GET /tasks/x: answered 200 {"jsonrpc":"2.0","id":1,"result":{}}, expected error -32602',
      },
    ],
    [
      'content type > a media type with parameters',
      {
        given: () =>
          expectContentType(streamed(200, 'text/event-stream; charset=utf-8', []), 'text/event-stream'),
        want: 'pass',
      },
    ],
    [
      'content type > another media type',
      {
        given: () => expectContentType(streamed(200, 'application/json', []), 'text/event-stream'),
        want: 'fail: POST /process: content-type is "application/json", expected text/event-stream',
      },
    ],
    [
      'content type > a pattern, said in words',
      {
        given: () => expectContentType(streamed(200, 'application/json', []), /yaml/, 'YAML'),
        want: 'fail: POST /process: content-type is "application/json", expected YAML',
      },
    ],
    [
      'content type > a pattern that matches',
      { given: () => expectContentType(streamed(200, 'text/yaml', []), /yaml/), want: 'pass' },
    ],
    [
      'event stream > 200, SSE, one event',
      { given: () => expectEventStream(streamed(200, 'text/event-stream', [frame(1, {})])), want: 'pass' },
    ],
    [
      'event stream > a refusal, with its body',
      {
        given: () => expectEventStream(streamed(400, 'application/json', [], [], '{"error":"no"}')),
        want: 'fail: POST /process: answered 400, expected 200: {"error":"no"}',
      },
    ],
    [
      'event stream > plain text',
      {
        given: () => expectEventStream(streamed(200, 'text/plain', [frame(1, {})])),
        want: 'fail: POST /process: content-type is "text/plain", expected text/event-stream',
      },
    ],
    [
      'event stream > no events',
      {
        given: () => expectEventStream(streamed(200, 'text/event-stream', [])),
        want: 'fail: POST /process: the stream held no events',
      },
    ],
    [
      'stream > any media type, the items named',
      {
        given: () => expectStream(streamed(200, 'application/x-ndjson', []), 'response'),
        want: 'fail: POST /process: the stream held no responses',
      },
    ],
    [
      'stream rules > none broken',
      { given: () => expectStreamRules(streamed(200, 'text/event-stream', [frame(1, {})])), want: 'pass' },
    ],
    [
      'stream rules > each issue by position, line, pointer and rule',
      {
        given: () =>
          expectStreamRules(
            streamed(
              200,
              'text/event-stream',
              [],
              [
                { index: 3, line: 9, pointer: '/status', message: 'must be a string', rule: 'schema' },
                { index: 4, pointer: '', message: 'no terminal event', rule: 'terminal' },
              ],
            ),
            'response',
          ),
        want: 'fail: POST /process: response 3 (line 9): /status: must be a string [schema]; POST /process: response 4: (response): no terminal event [terminal]',
      },
    ],
    [
      'follow-up > what the earlier check learned',
      { given: () => followUp({ requirePassed: () => {} }, 'a.send', { id: 't' }, 'no task'), want: 'pass' },
    ],
    [
      'follow-up > nothing learned skips with the reason',
      {
        given: () => followUp({ requirePassed: () => {} }, 'a.send', undefined, 'no task to read'),
        want: 'skip: no task to read',
      },
    ],
    [
      'follow-up > an earlier check that did not pass fails first',
      {
        given: () =>
          followUp(
            {
              requirePassed: (id) => {
                throw new CheckFailure(`cannot be carried out: ${id} did not pass`);
              },
            },
            'a.send',
            undefined,
            'no task to read',
          ),
        want: 'fail: cannot be carried out: a.send did not pass',
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(outcome(given)).toBe(want);
  });

  it('body > returns the body', () => {
    expect(expectBody<{ id: string }>(answer(200, '{"id":"t"}')).id).toBe('t');
  });

  it('stream > returns the values that parsed, in order', () => {
    const x = streamed(200, 'text/event-stream', [
      frame(1, { n: 1 }),
      { index: 2, line: 4, data: '{', ok: false, error: 'not JSON' },
      frame(3, { n: 3 }),
    ]);
    expect(expectEventStream(x)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(streamValues(x)).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('rpc result > returns the result', () => {
    expect(
      expectRpcResult<{ id: string }>(answer(200, '{"jsonrpc":"2.0","id":1,"result":{"id":"t"}}'), TASK).id,
    ).toBe('t');
  });

  it('rpc error > returns the error object, for checks that read its data', () => {
    const x = answer(400, '{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"a":1}}}');
    expect(expectRpcError(x, -32021).data).toEqual({ a: 1 });
    expect(rpcErrorIn(x.body)?.code).toBe(-32021);
    expect(rpcErrorIn({ error: 'text' })).toBeUndefined();
    expect(rpcErrorIn(null)).toBeUndefined();
  });
});
