import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../../../test/support/typed.js';
import type { RpcMethodSpec } from '../jsonrpc/rpc-app.js';
import { ResponseFaults } from './response-faults.js';
import { defaultErrorData, RpcErrors } from './rpc-answer.js';
import { checkRpcResult } from './rpc-check-result.js';

const spec: RpcMethodSpec = {
  name: 'count',
  paramStructure: 'either',
  paramNames: [],
  params: (_value: unknown): _value is unknown => true,
  result: new Ajv().compile({ type: 'integer' }),
  resultType: 'Count',
};

describe('checkRpcResult', () => {
  it.each<[string, { validate: boolean; given: unknown; want: unknown }]>([
    ['valid > a result that fits passes', { validate: true, given: 3, want: undefined }],
    [
      'invalid > one that breaks the schema is an internal error',
      {
        validate: true,
        given: 'x',
        want: { code: -32603, message: 'Internal error: the agent gave an invalid result' },
      },
    ],
    ['off > without validation nothing is checked', { validate: false, given: 'x', want: undefined }],
  ])('%s', (_name, { validate, given, want }) => {
    const told: unknown[] = [];
    const faults = new ResponseFaults((e, m) => told.push([m, messageOf(e)]));
    const check = checkRpcResult(validate, new RpcErrors(defaultErrorData, () => {}), faults);
    // Asked twice: the same fault is told once.
    expect([check(spec, given), check(spec, given)]).toEqual([want, want]);
    expect(told).toEqual(want ? [['count', 'count result → Count: /: must be integer (got "x")']] : []);
  });
});
