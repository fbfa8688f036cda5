import { describe, expect, it } from 'vitest';
import { McpMessageCheck, MESSAGE_CHECK_MEMORY } from './message-check.js';

const NEW = '2026-07-28';
const OLD = '2025-11-25';
const META = {
  'io.modelcontextprotocol/protocolVersion': NEW,
  'io.modelcontextprotocol/clientCapabilities': {},
};

const call = (id: number, token?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'slow',
    arguments: {},
    _meta: token === undefined ? META : { ...META, progressToken: token },
  },
});
const progress = (token: string, value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value, total: 100 },
});
const done = (id: number) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' },
});

/** The issues of a whole sequence, as `index: rule pointer` lines (the message only where asked). */
function issuesOf(version: string, messages: unknown[], withMessage = false): string[] {
  const check = new McpMessageCheck(version === OLD ? OLD : NEW);
  const out = messages.flatMap((m, i) => check.push(m, { index: i + 1 }));
  return [...out, ...check.end()].map(
    (i) =>
      `${i.index}: ${i.rule} ${i.pointer}${withMessage ? ` ${i.message}` : ''}${i.type ? ` (${i.type})` : ''}`,
  );
}

describe('mcp > message check', () => {
  const cases: Array<[string, { messages: unknown[]; version?: string; want: string[] }]> = [
    [
      'an answer stream > progress rising, then the response',
      { messages: [progress('t', 0), progress('t', 50), progress('t', 100), done(1)], want: [] },
    ],
    [
      'a capture > the request, its progress and its answer',
      { messages: [call(1, 't'), progress('t', 10), done(1)], want: [] },
    ],
    [
      'progress > that does not rise',
      { messages: [progress('t', 50), progress('t', 50)], want: ['2: progress-increases /params/progress'] },
    ],
    [
      'progress > for a request answered already',
      {
        messages: [call(1, 't'), done(1), progress('t', 10)],
        want: ['3: progress-token-active /params/progressToken'],
      },
    ],
    [
      'progress > a token used again by a new request starts again',
      { messages: [call(1, 't'), progress('t', 90), done(1), call(2, 't'), progress('t', 10)], want: [] },
    ],
    [
      'one response > a second answer to one request',
      { messages: [call(1), done(1), done(1)], want: ['3: one-response /id'] },
    ],
    [
      'one response > each side numbers its own requests: one id open twice is answered twice',
      {
        version: OLD,
        messages: [call(1), { jsonrpc: '2.0', id: 1, method: 'ping' }, done(1), done(1)],
        want: [],
      },
    ],
    [
      'one response > but not three times',
      {
        version: OLD,
        messages: [call(1), { jsonrpc: '2.0', id: 1, method: 'ping' }, done(1), done(1), done(1)],
        want: ['5: one-response /id'],
      },
    ],
    [
      'one response > an id used again by a new request may be answered again',
      { messages: [call(1), done(1), call(1), done(1)], want: [] },
    ],
    [
      'types > a notification no side sends',
      {
        messages: [{ jsonrpc: '2.0', method: 'notifications/nothing', params: {} }],
        want: ['1: schema /method (ClientNotification or ServerNotification)'],
      },
    ],
    [
      'types > a result without resultType, in the revision that requires it',
      {
        messages: [{ jsonrpc: '2.0', id: 1, result: { content: [] } }],
        want: ['1: schema /result/resultType (JSONRPCResultResponse)'],
      },
    ],
    [
      'types > the same result in the revision before it',
      { version: OLD, messages: [{ jsonrpc: '2.0', id: 1, result: { content: [] } }], want: [] },
    ],
    [
      "types > a tool call whose arguments are not an object, told as that method's type",
      {
        messages: [{ ...call(1), params: { ...call(1).params, arguments: 7 } }],
        want: ['1: schema /params/arguments (CallToolRequest)'],
      },
    ],
    ['types > not an object', { messages: [7], want: ['1: schema  (JSONRPCMessage)'] }],
    [
      'types > not a JSON-RPC message',
      {
        version: OLD,
        messages: [{ id: 1, result: {} }],
        want: ['1: schema /jsonrpc (JSONRPCResultResponse)'],
      },
    ],
  ];
  it.each(cases)('%s', (_name, { messages, version = NEW, want }) => {
    expect(issuesOf(version, messages)).toEqual(want);
  });

  it('messages > say what was expected and what came', () => {
    expect(issuesOf(NEW, [progress('t', 50), progress('t', 20)], true)).toEqual([
      "2: progress-increases /params/progress must be greater than 50, the token's last progress (got 20)",
    ]);
  });

  it('memory > bounded, whatever the length of the sequence', () => {
    const check = new McpMessageCheck(NEW);
    for (let i = 0; i < 3 * MESSAGE_CHECK_MEMORY; i++) {
      check.push(call(i, `t${i}`), { index: 2 * i });
      if (i % 2 === 0) check.push(done(i), { index: 2 * i + 1 });
    }
    expect(check.remembered).toBeLessThanOrEqual(3 * MESSAGE_CHECK_MEMORY);
  });
});
