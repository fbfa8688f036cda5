import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import { createOperationApp, type HandlerResult, type OperationSpec } from '../operation-app.js';
import type { Validator } from '../validation.js';
import { primaryIssue, ResponseFaults, shortValue } from './response-faults.js';

const anything: Validator = (_value: unknown): _value is unknown => true;
const ajv = new Ajv({ allErrors: true });
const thing = ajv.compile({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, size: { type: 'integer' } },
});
// A union whose branches are told apart by `kind`, as stream frames are: the fault is in the branch that fits.
const frame = ajv.compile({
  anyOf: [
    {
      type: 'object',
      required: ['kind', 'text'],
      properties: { kind: { const: 'text' }, text: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['kind', 'data'],
      properties: { kind: { const: 'data' }, data: { type: 'object' } },
    },
  ],
});

const spec = (framed = true): OperationSpec[] => [
  {
    operationId: 'getThing',
    method: 'GET',
    path: '/thing',
    pathParams: anything,
    query: anything,
    responses: { '200': [{ mediaType: 'application/json', kind: 'json', validate: thing, type: 'Thing' }] },
  },
  {
    operationId: 'watch',
    method: 'GET',
    path: '/watch',
    pathParams: anything,
    query: anything,
    responses: {
      '200': [
        {
          mediaType: framed ? 'text/event-stream' : 'application/x-ndjson',
          kind: 'stream',
          validate: frame,
          type: 'Frame',
          framing: framed ? 'sse' : 'ndjson',
        },
      ],
    },
  },
];

async function* each(items: readonly unknown[]) {
  yield* items;
}

/** An app whose handlers answer what the test says, and the messages its onError got. */
function appOf(answer: () => HandlerResult, endWith?: (reason: string) => unknown) {
  const told: string[] = [];
  const app = createOperationApp(
    spec(),
    { getThing: answer, watch: answer },
    {
      validateResponses: true,
      onError: (error) => told.push(error instanceof Error ? error.message : String(error)),
      ...(endWith ? { streamErrorItem: endWith } : {}),
    },
  );
  return { app, told };
}

describe('response faults', () => {
  const cases: Array<[string, { given: unknown[]; want: string[] }]> = [
    [
      'body > the same fault in two requests is told once',
      {
        given: [{ name: 5 }, { name: 5 }],
        want: ['getThing 200 body → Thing: /name: must be string (got 5)'],
      },
    ],
    [
      'body > a fault at another pointer is told again',
      {
        given: [{ name: 5 }, { name: 'a', size: 'big' }, { name: 6 }],
        want: [
          'getThing 200 body → Thing: /name: must be string (got 5)',
          'getThing 200 body → Thing: /size: must be integer (got "big")',
        ],
      },
    ],
    [
      'body > a missing property is got as nothing',
      { given: [{}], want: ['getThing 200 body → Thing: /name: is required but missing (got nothing)'] },
    ],
    [
      'body > a long value is cut',
      {
        given: [{ name: ['x'.repeat(100)] }],
        want: [`getThing 200 body → Thing: /name: must be string (got ["${'x'.repeat(58)}…)`],
      },
    ],
  ];
  it.each(cases)('%s', async (_, { given, want }) => {
    const answers = [...given];
    const { app, told } = appOf(() => ({ status: 200, body: answers.shift() }));
    for (const _ of given) {
      const res = await app.request('/thing');
      // What the client gets is unchanged: a 500 problem listing every issue.
      expect(res.status).toBe(500);
      expect(prop(await res.json(), 'type')).toMatch(/invalid-response$/);
    }
    expect(told).toEqual(want);
  });

  const streams: Array<
    [string, { given: unknown[][]; endWith?: boolean; want: { texts: string[]; told: string[] } }]
  > = [
    [
      'stream > a bad item ends the stream with the protocol error item, told once for two streams',
      {
        given: [
          [
            { kind: 'text', text: 'hi' },
            { kind: 'data', data: 'flat' },
            { kind: 'text', text: 'never' },
          ],
          [{ kind: 'data', data: 'flat' }],
        ],
        endWith: true,
        want: {
          texts: [
            'data: {"kind":"text","text":"hi"}\n\ndata: {"error":"watch stream item 2 → Frame: /data: must be object (got \\"flat\\")"}\n\n',
            'data: {"error":"watch stream item 1 → Frame: /data: must be object (got \\"flat\\")"}\n\n',
          ],
          told: ['watch stream item 2 → Frame: /data: must be object (got "flat")'],
        },
      },
    ],
    [
      'stream > without a protocol error item the stream ends, and onError is told',
      {
        given: [[{ kind: 'text', text: 'hi' }, { kind: 'text' }]],
        want: {
          texts: ['data: {"kind":"text","text":"hi"}\n\n'],
          told: ['watch stream item 2 → Frame: /text: is required but missing (got nothing)'],
        },
      },
    ],
  ];
  it.each(streams)('%s', async (_, { given, endWith, want }) => {
    const answers = [...given];
    const { app, told } = appOf(
      () => ({ status: 200, body: each(answers.shift() ?? []) }),
      endWith ? (reason) => ({ error: reason }) : undefined,
    );
    const texts: string[] = [];
    for (const _ of given) texts.push(await (await app.request('/watch')).text());
    expect({ texts, told }).toEqual(want);
  });

  it('log > past its limit a fault is no longer remembered, so it is told each time', () => {
    const told: unknown[] = [];
    const faults = new ResponseFaults((e) => told.push(e), 1);
    const issue = (pointer: string) => [{ pointer, message: 'must be string', keyword: 'type' }];
    for (const pointer of ['/a', '/a', '/b', '/b'])
      faults.report('op', 'body', 'T', issue(pointer), { a: 1, b: 2 });
    expect(told.map(String)).toEqual([
      'Error: op body → T: /a: must be string (got 1)',
      'Error: op body → T: /b: must be string (got 2)',
      'Error: op body → T: /b: must be string (got 2)',
    ]);
  });

  const picks: Array<[string, { given: Array<[string, string]>; want: string | undefined }]> = [
    [
      'pick > the deepest issue',
      {
        given: [
          ['', 'type'],
          ['/a/b', 'type'],
          ['/a', 'type'],
        ],
        want: '/a/b',
      },
    ],
    [
      'pick > a rule of the value over a union branch that did not fit',
      {
        given: [
          ['/kind', 'const'],
          ['/data', 'type'],
          ['', 'anyOf'],
        ],
        want: '/data',
      },
    ],
    [
      'pick > a wrong value over a property another branch wants',
      {
        given: [
          ['/text', 'required'],
          ['/kind', 'const'],
          ['/data', 'type'],
        ],
        want: '/data',
      },
    ],
    ['pick > a union summary when alone', { given: [['', 'anyOf']], want: '' }],
    ['pick > nothing from nothing', { given: [], want: undefined }],
  ];
  it.each(picks)('%s', (_, { given, want }) => {
    const issues = given.map(([pointer, keyword]) => ({ pointer, keyword, message: '' }));
    expect(primaryIssue(issues)?.pointer).toBe(want);
  });

  it('value > JSON on one line, or nothing', () => {
    expect([
      shortValue(undefined),
      shortValue('a\nb'),
      shortValue(10n),
      shortValue('x'.repeat(5), 3),
    ]).toEqual(['nothing', '"a\\nb"', '10', '"xx…']);
  });
});
