// Status ranges and `default` (OpenAPI 3.1 response keys `2XX`, `4XX`, `default`) in emitted routes, on the
// status-ranges construct's golden output: the handler's result type takes each range's statuses, and the runtime
// checks an answer against the most specific key that covers its status.
import { describe, expect, it } from 'vitest';
import { illTyped } from '../../../../../test/support/typed.js';
import {
  createStatusRangesApp,
  type PlaceOrderResult,
} from '../../../test/constructs/generated/status-ranges/index.js';

/** An app whose one handler answers what the test says. */
const appAnswering = (result: PlaceOrderResult) =>
  createStatusRangesApp({ placeOrder: () => result }, { validateResponses: true, onError: () => {} });

describe('routes > status ranges', () => {
  const cases: Array<[string, { given: PlaceOrderResult; want: number }]> = [
    ['2XX > 201 with a Receipt', { given: { status: 201, body: { id: 'r1' } }, want: 201 }],
    ['exact > 200 with a Receipt', { given: { status: 200, body: { id: 'r1' } }, want: 200 }],
    ['4XX > 409 with a Failure', { given: { status: 409, body: { reason: 'sold out' } }, want: 409 }],
    ['default > 503 with any object', { given: { status: 503, body: {} }, want: 503 }],
  ];
  it.each(cases)('%s', async (_, { given, want }) => {
    const res = await appAnswering(given).request('/orders', { method: 'POST' });
    expect(res.status).toBe(want);
  });

  it('2XX > a body that breaks the range key schema is caught (500 in development)', async () => {
    const res = await appAnswering({ status: 202, body: illTyped({ nope: true }) }).request('/orders', {
      method: 'POST',
    });
    expect(res.status).toBe(500);
  });

  it('types > a status no key covers does not compile', () => {
    // @ts-expect-error: 299 is not a registered 2xx status, so no response key of placeOrder covers it.
    const bad: PlaceOrderResult = { status: 299, body: { id: 'r1' } };
    expect(bad.status).toBe(299);
  });
});
