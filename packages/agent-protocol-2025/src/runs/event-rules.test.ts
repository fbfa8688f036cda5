import { describe, expect, it } from 'vitest';
import { EVENT_RULES, type EventRule, EventStreamCheck } from './event-rules.js';

const e = (id: number, type: string, extra: Record<string, unknown> = {}) => ({
  id,
  run_id: 1,
  agent: 'a',
  type,
  role: 'system',
  depth: 0,
  request_id: 'r1',
  ...(type === 'RequestCompleted' ? { finish_reason: 'success' } : {}),
  ...(type === 'TextOutput' ? { content: 'x' } : {}),
  ...extra,
});
const good = [e(1, 'RequestStarted'), e(2, 'TextOutput'), e(3, 'RequestCompleted')];

function check(events: unknown[]) {
  const c = new EventStreamCheck();
  return [...events.flatMap((x, i) => c.push(x, { index: i + 1 })), ...c.end()];
}

describe('event rules', () => {
  it('good > a request from RequestStarted to RequestCompleted passes', () => {
    expect(check(good)).toEqual([]);
  });

  const cases: Array<[string, { events: unknown[]; rule: EventRule | 'schema' }]> = [
    [
      'ids-increase',
      {
        events: [e(1, 'RequestStarted'), e(1, 'TextOutput'), e(3, 'RequestCompleted')],
        rule: 'ids-increase',
      },
    ],
    ['request-starts', { events: [e(1, 'TextOutput'), e(2, 'RequestCompleted')], rule: 'request-starts' }],
    ['one-completion', { events: [...good, e(4, 'TextOutput')], rule: 'one-completion' }],
    ['request-completes', { events: good.slice(0, 2), rule: 'request-completes' }],
    ['schema', { events: [e(1, 'RequestStarted', { depth: -1 })], rule: 'schema' }],
  ];
  it.each(cases)('bad > %s', (_, { events, rule }) => {
    const issues = check(events);
    expect([...new Set(issues.map((i) => i.rule))]).toEqual([rule]);
  });

  it('coverage > every rule has a case', () => {
    expect(new Set(cases.map(([, c]) => c.rule).filter((r) => r !== 'schema'))).toEqual(
      new Set(Object.keys(EVENT_RULES)),
    );
  });
});
