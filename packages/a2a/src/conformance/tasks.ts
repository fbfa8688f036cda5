// Tasks (specification §3.1.3, §3.1.5, §3.1.6, §3.2.4, §3.3.2): the task SendMessage made is read back, with its
// history left out when asked; an unknown task is TaskNotFoundError; a finished task can be neither canceled nor
// subscribed to.
import { CheckFailure } from '@agentproto/runtime/contract';
import { type BindingChecks, type BindingSpec, SPEC } from './bindings.js';
import type { SentTask } from './messaging.js';

/** The task checks of one binding. */
export const taskDefinitions = ({ prefix, name, section }: BindingSpec) => [
  {
    id: `a2a.${prefix}.get`,
    level: 'MUST' as const,
    title: `${name}: GetTask reads the task SendMessage made`,
    ref: `${SPEC} §3.1.3, ${section}`,
    covers: ['get.task'],
  },
  {
    id: `a2a.${prefix}.history-zero`,
    level: 'SHOULD' as const,
    title: `${name}: GetTask with historyLength 0 leaves history out`,
    ref: `${SPEC} §3.2.4`,
    covers: ['history.length'],
  },
  {
    id: `a2a.${prefix}.not-found`,
    level: 'MUST' as const,
    title: `${name}: an unknown task is TaskNotFoundError`,
    ref: `${SPEC} §3.3.2, §5.4, ${section}`,
    covers: ['task.not-found'],
  },
  {
    id: `a2a.${prefix}.cancel-terminal`,
    level: 'MUST' as const,
    title: `${name}: canceling a finished task is TaskNotCancelableError`,
    ref: `${SPEC} §3.1.5, §5.4`,
    covers: ['cancel.terminal'],
  },
  {
    id: `a2a.${prefix}.subscribe-terminal`,
    level: 'MUST' as const,
    title: `${name}: subscribing to a finished task is UnsupportedOperationError`,
    ref: `${SPEC} §3.1.6, §9.4.6`,
    covers: ['subscribe.terminal'],
  },
];

/** The id the kit asks for when it wants a task no agent has. */
export const UNKNOWN_TASK = 'conformance-no-such-task';
/** Why a check that reads the task SendMessage made is skipped. */
export const NO_TASK = 'the agent says it answers with a message, so there is no task to read';
const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];
/** The task, when it has finished (a terminal state, §4.1.3). */
const finished = (task: SentTask | undefined) =>
  task && TERMINAL.includes(task.status.state) ? task : undefined;

/** Reads the task `task` (SendMessage's), asks for an unknown one, and tries to cancel and subscribe to it finished. */
export async function taskChecks({ check, after }: BindingChecks, sent: SentTask | undefined): Promise<void> {
  await check('get', async (b) => {
    const task = after('send', sent, NO_TASK);
    const x = await b.call('GetTask', { id: task.id });
    const { id } = b.result<{ id?: string }>(x);
    if (id !== task.id)
      throw new CheckFailure(`${x.label}: the task's id is ${JSON.stringify(id)}, expected "${task.id}"`);
    return undefined;
  });
  await check('history-zero', async (b) => {
    const task = after('send', sent, NO_TASK);
    const x = await b.call('GetTask', { id: task.id, historyLength: 0 });
    const { history } = b.result<{ history?: unknown[] }>(x);
    if (history !== undefined && history.length > 0)
      throw new CheckFailure(
        `${x.label}: asked for historyLength 0, the task carries ${history.length} history messages, expected none`,
      );
    return undefined;
  });
  await check('not-found', async (b) => {
    b.expectError(await b.call('GetTask', { id: UNKNOWN_TASK }), 'TASK_NOT_FOUND');
    return undefined;
  });
  await check('cancel-terminal', async (b) => {
    const task = after('send', finished(sent), 'the agent claims no finished task to cancel');
    b.expectError(await b.call('CancelTask', { id: task.id }), 'TASK_NOT_CANCELABLE');
    return undefined;
  });
  await check('subscribe-terminal', async (b) => {
    const task = after('send', finished(sent), 'the agent claims no finished task');
    b.expectError(await b.call('SubscribeToTask', { id: task.id }), 'UNSUPPORTED_OPERATION');
    return undefined;
  });
}
