// AgentScope 0.1 and 1.1 are two immutable versions of one protocol that broke compatibility. Each input below is
// accepted by exactly one of them; every case runs as a pair of tests, one per version, through the generated
// validators.
import * as v01 from '@agentproto/agentscope/0.1';
import * as v11 from '@agentproto/agentscope/1.1';
import { describeErrors, type Validator } from '@agentproto/runtime';
import { describe, expect, it } from 'vitest';

const VALIDATORS: Record<'0.1' | '1.1', Readonly<Record<string, Validator>>> = {
  '0.1': v01.validators,
  '1.1': v11.validators,
};
const user = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

const cases: Array<[string, { type: string; value: unknown; accepts: '0.1' | '1.1' }]> = [
  [
    'sequence_number as a string',
    { type: 'StreamEvent', value: { object: 'response', id: 'r', sequence_number: '3' }, accepts: '0.1' },
  ],
  [
    'sequence_number as an integer',
    { type: 'StreamEvent', value: { object: 'response', id: 'r', sequence_number: 3 }, accepts: '1.1' },
  ],
  [
    'a role outside the Role list (free in 0.1)',
    { type: 'Message', value: { role: 'critic', content: [] }, accepts: '0.1' },
  ],
  [
    'a reasoning message',
    { type: 'Message', value: { type: 'reasoning', role: 'assistant' }, accepts: '1.1' },
  ],
  [
    'a queued response',
    { type: 'AgentResponse', value: { object: 'response', status: 'queued' }, accepts: '1.1' },
  ],
  [
    'a video content part',
    { type: 'Content', value: { type: 'video', video_url: 'https://example.com/v.mp4' }, accepts: '1.1' },
  ],
  [
    'a request with user_id',
    { type: 'AgentRequest', value: { input: [user], user_id: 'u1' }, accepts: '1.1' },
  ],
  [
    'a message with metadata',
    { type: 'Message', value: { ...user, metadata: { trace: 'x' } }, accepts: '1.1' },
  ],
  [
    'a function output with the function name',
    { type: 'FunctionCallOutput', value: { call_id: 'c', output: 'o', name: 'f' }, accepts: '1.1' },
  ],
  [
    'a tool whose type is null',
    { type: 'Tool', value: { type: null, function: null, note: 'x' }, accepts: '1.1' },
  ],
];

describe.each(cases)('agentscope versions > %s', (_, { type, value, accepts }) => {
  it.each(['0.1', '1.1'] as const)('%s', (version) => {
    const validate = VALIDATORS[version][type];
    if (!validate) throw new Error(`${version} has no ${type}`);
    const ok = validate(value);
    expect(ok, JSON.stringify(describeErrors(validate.errors))).toBe(version === accepts);
  });
});
