import { MemoryStore } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';
import { record } from '../../../../test/support/typed.js';
import { createReferenceAgent } from '../reference-agent/index.js';
import { SessionHistory } from './session-history.js';

const say = (text: string, session?: string) =>
  JSON.stringify({
    input: [{ role: 'user', type: 'message', content: [{ type: 'text', text }] }],
    ...(session === undefined ? {} : { session_id: session }),
  });

/** The text the agent streamed in answer. */
async function answer(
  app: { request: (p: string, i: RequestInit) => Response | Promise<Response> },
  body: string,
) {
  const res = await app.request('/process', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  const done = text
    .split('\n\n')
    .filter(Boolean)
    .map((f) => record(JSON.parse(f.slice('data: '.length))))
    .find((e) => e.object === 'content' && e.status === 'completed' && e.type === 'text');
  return String(done?.text);
}

describe.each(['0.1', '1.1'] as const)('agentscope %s > sessions', (version) => {
  it('history > a session remembers its earlier turns; another session, or none, does not', async () => {
    const store = new MemoryStore();
    const app = createReferenceAgent(version, store);
    expect(await answer(app, say('I like olive wood.', 's1'))).toBe('You said: I like olive wood.');
    expect(await answer(app, say('What did I say?', 's1'))).toBe('Before, you said: I like olive wood.');
    expect(await answer(app, say('What did I say?', 's2'))).toBe('This is the first thing you said.');
    expect(await answer(app, say('What did I say?'))).toBe('This is the first thing you said.');
    // The session holds both turns: each request's input and its completed answer.
    const kept = await new SessionHistory(store).messages('s1');
    expect(kept.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // Another process on the same store (here: another app) continues the session.
    expect(await answer(createReferenceAgent(version, store), say('What did I say?', 's1'))).toBe(
      'Before, you said: What did I say?',
    );
  });
});

describe('session history', () => {
  it('append > keeps at most maxMessages, the newest', async () => {
    const history = new SessionHistory(new MemoryStore(), { maxMessages: 3 });
    for (const n of [1, 2, 3, 4]) await history.append('s', [{ role: 'user', n }]);
    expect((await history.messages('s')).map((m) => m.n)).toEqual([2, 3, 4]);
  });

  it('append > writers at once all land', async () => {
    const history = new SessionHistory();
    await Promise.all(Array.from({ length: 10 }, (_, n) => history.append('s', [{ n }])));
    expect((await history.messages('s')).map((m) => m.n).sort((a, b) => Number(a) - Number(b))).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
  });

  it('options > a bound that is not a positive whole number is refused', () => {
    expect(() => new SessionHistory(new MemoryStore(), { maxMessages: 0 })).toThrow(/positive whole number/);
  });
});
