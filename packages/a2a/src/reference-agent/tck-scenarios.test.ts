import { describe, expect, it } from 'vitest';
import { createReferenceAgent } from './reference-agent.js';
import { TCK_SCENARIOS, tckScenario } from './tck-scenarios.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const { app } = createReferenceAgent({ chunkDelayMs: 0 });
const json = { 'A2A-Version': '1.0', 'content-type': 'application/json' };
const send = async (messageId: string): Promise<Json> =>
  (
    await app.request('/message:send', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ message: { messageId, role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    })
  ).json();
const id = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

describe('reference agent > TCK scenarios', () => {
  it.each([
    ['tck-complete-task', 'TASK_STATE_COMPLETED', undefined],
    ['tck-artifact-text', 'TASK_STATE_COMPLETED', { text: 'Generated text content' }],
    [
      'tck-artifact-file',
      'TASK_STATE_COMPLETED',
      { raw: 'dGNr', filename: 'output.txt', mediaType: 'text/plain' },
    ],
    [
      'tck-artifact-file-url',
      'TASK_STATE_COMPLETED',
      { url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' },
    ],
    ['tck-artifact-data', 'TASK_STATE_COMPLETED', { data: { key: 'value', count: 42 } }],
    ['tck-input-required', 'TASK_STATE_INPUT_REQUIRED', undefined],
    ['tck-reject-task', 'TASK_STATE_REJECTED', undefined],
    ['tck-stream-artifact-chunked', 'TASK_STATE_COMPLETED', { text: 'chunk-1 chunk-2' }],
  ] as const)('%s > ends %s with its artifact', async (prefix, state, part) => {
    const { task } = await send(id(prefix));
    expect(task.status.state).toBe(state);
    if (part) {
      const parts = task.artifacts[0].parts;
      const joined = parts.every((p: Json) => 'text' in p)
        ? [{ text: parts.map((p: Json) => p.text).join('') }]
        : parts;
      expect(joined).toEqual([part]);
    } else expect(task.artifacts).toBeUndefined();
  });

  it('tck-message-response > a message, no task', async () => {
    const answer = await send(id('tck-message-response'));
    expect(answer.message.parts).toEqual([{ text: 'Direct message response' }]);
  });

  it.each([
    ['tck-artifact-file-url-1', 'tck-artifact-file-url'],
    ['tck-artifact-file-1', 'tck-artifact-file'],
    ['tck-stream-artifact-file-1', 'tck-stream-artifact-file'],
    ['tck-unknown-1', undefined],
    ['plain-id', undefined],
  ] as const)('prefix > %s is %s (the longest prefix wins)', (messageId, prefix) => {
    expect(tckScenario(messageId)).toBe(prefix ? TCK_SCENARIOS[prefix] : undefined);
  });

  it('default > a message id with no scenario prefix still plans a trip', async () => {
    const { task } = await send(id('tck-unknown'));
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});
