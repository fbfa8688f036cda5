import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFrames, readFrames } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { at, record } from '../../../../test/support/typed.js';
import {
  AgentScopeStreamCheck,
  type AgentScopeVersion,
  checkStream,
  STREAM_RULES,
  type StreamRule,
} from './stream-rules.js';

const SCHEMAS = path.resolve(import.meta.dirname, '../../../../schemas/agentscope');

type Event = Record<string, unknown>;

/** The events of a version's upstream-shaped capture (schemas/agentscope/<v>/streams/upstream-shape.sse). */
async function capture(version: AgentScopeVersion): Promise<Event[]> {
  const text = readFileSync(path.join(SCHEMAS, version, 'streams/upstream-shape.sse'), 'utf8');
  const events: Event[] = [];
  for await (const frame of parseFrames(readFrames([text], 'sse'))) {
    if (!frame.ok) throw new Error(frame.error);
    events.push(record(frame.value));
  }
  return events;
}

describe('stream rules > a stream shaped as upstream emits it', () => {
  it.each(['0.1', '1.1'] as const)('upstream shape > %s capture passes', async (version) => {
    const events = await capture(version);
    expect(events).toHaveLength(10);
    expect(checkStream(version, events)).toEqual([]);
  });
});

// Each case breaks exactly one rule of a valid 1.1 stream; the check must name that rule, and only that rule.
const cases: Array<[string, { rule: StreamRule; edit: (events: Event[]) => Event[] }]> = [
  ['first-created > opens with in_progress', { rule: 'first-created', edit: (e) => renumber(e.slice(1)) }],
  [
    'one-response > the terminal response has another id',
    { rule: 'one-response', edit: (e) => patch(e, 9, { id: 'response_other' }) },
  ],
  [
    'sequence-number > a number repeats',
    { rule: 'sequence-number', edit: (e) => patch(e, 4, { sequence_number: 3 }) },
  ],
  [
    'sequence-number > a number is missing',
    { rule: 'sequence-number', edit: (e) => patch(e, 4, { sequence_number: null }) },
  ],
  [
    'message-announced > a content part names an unknown message',
    { rule: 'message-announced', edit: (e) => patchRange(e, 3, 7, { msg_id: 'msg_nobody' }) },
  ],
  [
    'message-announced > a content part has no msg_id',
    { rule: 'message-announced', edit: (e) => patchRange(e, 3, 7, { msg_id: null }) },
  ],
  [
    'message-open > a completed message is announced again',
    {
      rule: 'message-open',
      edit: (e) => renumber([...e.slice(0, 9), { ...at(e, 2) }, at(e, 9)]),
    },
  ],
  [
    'delta-concat > the completed text differs from its deltas',
    {
      rule: 'delta-concat',
      edit: (e) => patch(e, 7, { text: 'Bonjour le monde' }),
    },
  ],
  [
    'content-open > a delta follows the completed part',
    {
      rule: 'content-open',
      edit: (e) => renumber([...e.slice(0, 8), { ...at(e, 6) }, ...e.slice(8)]),
    },
  ],
  [
    'message-completes-first > the response completes before its message',
    { rule: 'message-completes-first', edit: (e) => renumber([...e.slice(0, 8), at(e, 9)]) },
  ],
  [
    'one-terminal > the stream stops before the terminal response',
    { rule: 'one-terminal', edit: (e) => e.slice(0, 9) },
  ],
  [
    'after-terminal > an event follows the terminal response',
    { rule: 'after-terminal', edit: (e) => renumber([...e, { ...at(e, 1) }]) },
  ],
];

describe('stream rules > one broken rule per case', () => {
  it.each(cases)('%s', async (_, { rule, edit }) => {
    const issues = checkStream('1.1', edit(await capture('1.1')));
    expect(issues.length).toBeGreaterThan(0);
    expect([...new Set(issues.map((i) => i.rule))]).toEqual([rule]);
  });

  it('coverage > every rule has a case that breaks it', () => {
    expect(new Set(cases.map(([, c]) => c.rule))).toEqual(new Set(Object.keys(STREAM_RULES)));
  });
});

describe('stream rules > frames', () => {
  it('schema > a broken event is reported with its type and pointer, and the rules skip it', async () => {
    const events = patch(await capture('1.1'), 3, { delta: 'yes' });
    const issues = checkStream('1.1', events);
    expect(issues).toContainEqual({
      index: 4,
      pointer: '/delta',
      message: 'must be boolean or null',
      rule: 'schema',
      type: 'Content',
    });
  });

  it('error frame > 1.1 recognises it as the end of the stream', () => {
    const check = new AgentScopeStreamCheck('1.1');
    expect(check.push({ error: 'Runner is not ready' }, { index: 1 })).toEqual([]);
    expect(check.end()).toEqual([]);
    expect(check.outcome).toBe('error-frame');
  });

  it('error frame > 0.1 has none: the frame breaks the schema', () => {
    const issues = checkStream('0.1', [{ error: 'Runner is not ready' }]);
    expect(issues[0]).toMatchObject({ rule: 'schema', pointer: '/object', type: 'StreamEvent' });
  });

  it('sequence numbers > 0.1 strings are not ordered by the rules', async () => {
    const events = (await capture('0.1')).map((e, i) => ({ ...e, sequence_number: String(100 - i) }));
    expect(checkStream('0.1', events)).toEqual([]);
  });
});

// Delta texts are kept and compared as they are up to 64 Ki characters; past that they go into a running hash. Both
// ways must tell a completed text that matches its deltas from one that does not.
describe('stream rules > delta-concat, short and long deltas', () => {
  const deltas = (count: number, size: number) =>
    Array.from({ length: count }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(size));
  const stream = async (pieces: string[], completed: string) => {
    const events = await capture('1.1');
    const deltaEvents = pieces.map((text) => ({ ...at(events, 3), text }));
    return renumber([
      ...events.slice(0, 3),
      ...deltaEvents,
      { ...at(events, 7), text: completed },
      ...events.slice(8),
    ]);
  };
  it.each([
    ['kept > 5 deltas of 10 characters', deltas(5, 10)],
    ['hashed > 40 deltas of 4,000 characters (past the kept length)', deltas(40, 4000)],
  ])('%s: equal passes, one character off is reported', async (_, pieces) => {
    const whole = pieces.join('');
    expect(checkStream('1.1', await stream(pieces, whole))).toEqual([]);
    for (const wrong of [`${whole.slice(0, -1)}!`, whole.slice(1), `${whole}x`]) {
      const issues = checkStream('1.1', await stream(pieces, wrong));
      expect(issues.map((i) => [i.rule, i.pointer])).toEqual([['delta-concat', '/text']]);
    }
  });
});

describe('stream rules > memory', () => {
  it('flat > 10,000 events of 1,000 messages keep the state bounded', () => {
    const check = new AgentScopeStreamCheck('1.1');
    let seq = 0;
    let index = 0;
    const push = (e: Event) => check.push({ sequence_number: seq++, ...e }, { index: ++index });
    const sizes: number[] = [];
    const issues = [
      ...push({ object: 'response', status: 'created', id: 'r' }),
      ...push({ object: 'response', status: 'in_progress', id: 'r' }),
    ];
    for (let m = 0; m < 1000; m++) {
      const id = `msg_${m}`;
      issues.push(
        ...push({ object: 'message', status: 'in_progress', id, type: 'message', role: 'assistant' }),
      );
      for (let d = 0; d < 7; d++)
        issues.push(
          ...push({
            object: 'content',
            status: 'in_progress',
            type: 'text',
            index: 0,
            delta: true,
            msg_id: id,
            text: `w${d} `,
          }),
        );
      issues.push(
        ...push({
          object: 'content',
          status: 'completed',
          type: 'text',
          index: 0,
          delta: false,
          msg_id: id,
          text: 'w0 w1 w2 w3 w4 w5 w6 ',
        }),
      );
      issues.push(
        ...push({ object: 'message', status: 'completed', id, type: 'message', role: 'assistant' }),
      );
      sizes.push(check.stateSize);
    }
    issues.push(...push({ object: 'response', status: 'completed', id: 'r' }), ...check.end());
    expect(index).toBeGreaterThanOrEqual(10_000);
    expect(issues).toEqual([]);
    // The state stops growing once the window of recent ids is full, however long the stream goes on.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(260);
    expect(sizes.at(-1)).toBe(sizes[500]);
  });
});

/** Patches events `from` to `to`, inclusive (every content event of the capture is 3 to 7). */
function patchRange(events: Event[], from: number, to: number, fields: Event): Event[] {
  return events.map((e, i) => (i >= from && i <= to ? { ...e, ...fields } : e));
}

function patch(events: Event[], at: number, fields: Event): Event[] {
  return events.map((e, i) => (i === at ? { ...e, ...fields } : e));
}

/** Renumbers a 1.1 stream so that only the intended rule breaks. */
function renumber(events: Event[]): Event[] {
  return events.map((e, i) => ({ ...e, sequence_number: i }));
}

// The protocol text's own "Example Streaming Sequence" (seed 0.1, kept verbatim in streams/counterexamples/): as
// written it is not a stream a client can read, and with only what it leaves out filled in, its deltas still make
// "Hello, world" where its completed part says "Hello, world!".
describe("stream rules > the seed text's example sequence", () => {
  const read = (name: string) =>
    readFileSync(path.join(SCHEMAS, '0.1/streams/counterexamples', name), 'utf8')
      .split('\n')
      .filter(Boolean);

  it('verbatim > two lines are not JSON, `assistant` is no message type, no part names its message', () => {
    const lines = read('seed-example-sequence.ndjson');
    expect(lines).toHaveLength(8);
    const parsed = lines.map((l) => {
      try {
        return record(JSON.parse(l));
      } catch {
        return undefined;
      }
    });
    expect(parsed.map((e) => e !== undefined)).toEqual([true, true, true, true, true, true, false, false]);
    const issues = checkStream('0.1', parsed.slice(0, 6));
    expect(issues.find((i) => i.index === 2)).toMatchObject({ rule: 'schema', pointer: '/type' });
    expect(issues.filter((i) => i.rule === 'message-announced').map((i) => i.index)).toEqual([3, 4, 5, 6]);
  });

  it('completed > only the deltas break a rule: they do not add up to the completed text', () => {
    const events = read('seed-example-sequence-completed.ndjson').map((l) => record(JSON.parse(l)));
    expect(checkStream('0.1', events).map((i) => [i.index, i.rule, i.pointer])).toEqual([
      [6, 'delta-concat', '/text'],
    ]);
  });
});
