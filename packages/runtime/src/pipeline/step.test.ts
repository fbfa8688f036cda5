import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { pipeline, type Step } from './step.js';

type Trail = { seen: string[] };
const note =
  (name: string): Step<Trail> =>
  (_c, state) => {
    state.seen.push(name);
    return undefined;
  };
const answer: Step<Trail> = (c, state) => c.json(state.seen);

function app(steps: ReadonlyArray<Step<Trail> | undefined>) {
  const hono = new Hono();
  hono.get(
    '/',
    pipeline(() => ({ seen: [] }), steps),
  );
  hono.onError((error) => new Response(String(error), { status: 500 }));
  return hono;
}

describe('pipeline', () => {
  it.each<[string, { given: ReadonlyArray<Step<Trail> | undefined>; want: unknown }]>([
    ['order > steps run in the order given', { given: [note('a'), note('b'), answer], want: ['a', 'b'] }],
    ['skip > a step given as undefined is left out', { given: [note('a'), undefined, answer], want: ['a'] }],
    [
      'async > a step that answers later is awaited before the next',
      {
        given: [
          async (_c, s) => {
            await new Promise((r) => setTimeout(r, 1));
            s.seen.push('late');
            return undefined;
          },
          note('b'),
          answer,
        ],
        want: ['late', 'b'],
      },
    ],
    [
      'stop > the first answer ends the request',
      { given: [note('a'), (c) => c.text('early', 409), note('b'), answer], want: 'early' },
    ],
  ])('%s', async (_name, { given, want }) => {
    const res = await app(given).request('/');
    expect(
      res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : await res.text(),
    ).toEqual(want);
  });

  it('state > each request gets its own', async () => {
    const hono = app([note('a'), answer]);
    await hono.request('/');
    expect(await (await hono.request('/')).json()).toEqual(['a']);
  });

  it('end > a pipeline where no step answers is an error, not a silent empty answer', async () => {
    const res = await app([note('a')]).request('/');
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/no step of the pipeline answered/);
  });
});
