import { describe, expect, it } from 'vitest';
import { A2aStreamCheck } from './stream-rules.js';

const task = (state = 'TASK_STATE_SUBMITTED', extra = {}) => ({
  task: { id: 't1', contextId: 'c1', status: { state }, ...extra },
});
const status = (state: string, taskId = 't1') => ({
  statusUpdate: { taskId, contextId: 'c1', status: { state } },
});
const chunk = (artifactId: string, append = false) => ({
  artifactUpdate: {
    taskId: 't1',
    contextId: 'c1',
    artifact: { artifactId, parts: [{ text: 'x' }] },
    ...(append ? { append } : {}),
  },
});
const message = { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } };
const rpc = (result: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, result });

/** The rules each stream breaks, at which item (each pair once). */
function run(items: unknown[]): Array<[number, string]> {
  const check = new A2aStreamCheck();
  const issues = items.flatMap((item, i) => check.push(item, { index: i + 1 }));
  const pairs = [...issues, ...check.end()].map((i) => `${i.index} ${i.rule}`);
  return [...new Set(pairs)].map((p) => {
    const [index = '0', rule = ''] = p.split(' ');
    return [Number(index), rule];
  });
}

describe('A2A stream rules', () => {
  it.each([
    [
      'valid > a task from submitted to completed',
      {
        given: [
          task(),
          status('TASK_STATE_WORKING'),
          chunk('a'),
          chunk('a', true),
          status('TASK_STATE_COMPLETED'),
        ],
        want: [],
      },
    ],
    [
      'valid > a turn that ends asking for input',
      { given: [task(), status('TASK_STATE_INPUT_REQUIRED')], want: [] },
    ],
    [
      'valid > a final task snapshot after the last status',
      { given: [task(), status('TASK_STATE_COMPLETED'), task('TASK_STATE_COMPLETED')], want: [] },
    ],
    ['valid > a message alone', { given: [message], want: [] }],
    ['valid > a task already completed, alone', { given: [task('TASK_STATE_COMPLETED')], want: [] }],
    [
      'valid > the stream of the message that continues a task asking for input',
      {
        given: [
          task('TASK_STATE_INPUT_REQUIRED'),
          status('TASK_STATE_WORKING'),
          status('TASK_STATE_COMPLETED'),
        ],
        want: [],
      },
    ],
    [
      'closes-at-final > a task already completed, then a status',
      { given: [task('TASK_STATE_COMPLETED'), status('TASK_STATE_WORKING')], want: [[2, 'closes-at-final']] },
    ],
    [
      'one-envelope-id > held to the id of a first response that broke its schema',
      {
        given: [{ jsonrpc: '1.0', id: 7, result: task() }, rpc(status('TASK_STATE_COMPLETED'), 7)],
        want: [[1, 'schema']],
      },
    ],
    [
      'valid > JSON-RPC responses, ended by an error',
      {
        given: [
          rpc(task()),
          rpc(status('TASK_STATE_WORKING')),
          { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } },
        ],
        want: [],
      },
    ],
    [
      'valid > appending to an artifact the first task already had',
      {
        given: [
          task('TASK_STATE_WORKING', { artifacts: [{ artifactId: 'a', parts: [{ text: 'x' }] }] }),
          chunk('a', true),
          status('TASK_STATE_COMPLETED'),
        ],
        want: [],
      },
    ],
    [
      'first-is-task-or-message > a status update first',
      { given: [status('TASK_STATE_WORKING')], want: [[1, 'first-is-task-or-message']] },
    ],
    [
      'message-alone > anything after a message',
      { given: [message, status('TASK_STATE_WORKING')], want: [[2, 'message-alone']] },
    ],
    [
      'one-task > an update of another task',
      { given: [task(), status('TASK_STATE_COMPLETED', 't2')], want: [[2, 'one-task']] },
    ],
    [
      'closes-at-final > an update after completion',
      {
        given: [task(), status('TASK_STATE_COMPLETED'), status('TASK_STATE_WORKING')],
        want: [[3, 'closes-at-final']],
      },
    ],
    [
      'closes-at-final > two snapshots after the end',
      {
        given: [task(), status('TASK_STATE_FAILED'), task('TASK_STATE_FAILED'), task('TASK_STATE_FAILED')],
        want: [[4, 'closes-at-final']],
      },
    ],
    [
      'append-known-artifact > a chunk appended to nothing',
      {
        given: [task(), chunk('b', true), status('TASK_STATE_COMPLETED')],
        want: [[2, 'append-known-artifact']],
      },
    ],
    [
      'ends-at-final > a stream cut while working',
      { given: [task(), status('TASK_STATE_WORKING')], want: [[2, 'ends-at-final']] },
    ],
    [
      'one-envelope-id > responses with different ids',
      { given: [rpc(task(), 1), rpc(status('TASK_STATE_COMPLETED'), 2)], want: [[2, 'one-envelope-id']] },
    ],
    [
      'schema > a v0.3 event',
      {
        given: [{ kind: 'status-update', taskId: 't1', status: { state: 'working' }, final: true }],
        want: [[1, 'schema']],
      },
    ],
  ] as const)('%s', (_, { given, want }) => {
    expect(run([...given])).toEqual(want);
  });
});
