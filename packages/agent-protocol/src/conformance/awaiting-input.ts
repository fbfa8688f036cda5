// The awaiting_input extension of Agent Protocol v1 (the RFC's option 1): a step may end `awaiting_input` to ask the
// user, and the next step's input answers it. Its checks drive the RFC's cutting-board dialogue on a task of its own.
import {
  type CheckDefinition,
  CheckFailure,
  CheckSkipped,
  expectBody,
  expectStatus,
  type SuiteContext,
} from '@agentproto/runtime/contract';

const RFC = 'awaiting_input RFC (AIEF agent-protocol, "Support for bidirectional communication", option 1)';

// The extension's checks: the RFC's dialogue, driven on a task of its own. A third-party agent decides by itself
// whether a task needs a question; one that asks none in 20 steps is not checked (the checks are skipped, saying so).
export const AWAITING_CHECKS: CheckDefinition[] = [
  {
    id: 'ap.awaiting.ask',
    level: 'MUST',
    title: 'a step that asks the user ends awaiting_input, and is not the last',
    ref: `${RFC}; DECISIONS (agent-protocol) "The awaiting_input extension"`,
    covers: ['awaiting.ask'],
  },
  {
    id: 'ap.awaiting.answer-required',
    level: 'SHOULD',
    title: 'while a question is open, a step without input is refused and the task is unchanged',
    ref: 'DECISIONS (agent-protocol) "The answer is required"',
    covers: ['awaiting.answer-required'],
  },
  {
    id: 'ap.awaiting.answer',
    level: 'MUST',
    title: "the next step's input answers the question, and the task goes on to its last step",
    ref: `${RFC}: "a way to resolve this status with additional input for an existing task or step"`,
    covers: ['awaiting.answer'],
  },
];

/**
 * The RFC's cutting-board dialogue on a task of its own (made at `tasks`, the task list's path): the agent asks, a
 * step without the answer is refused, the answer goes on.
 */
export async function dialogue(
  { session, check, requirePassed }: SuiteContext,
  tasks: string,
): Promise<void> {
  type StepBody = { step_id: string; status: string; is_last: boolean; output?: string | null };
  let steps = '';
  let asked: StepBody | undefined;
  let askedNothing = false;
  const notAsked = 'no step said awaiting_input within 20 steps: the agent claims no question in this task';
  await check('ap.awaiting.ask', async () => {
    requirePassed('ap.task.create');
    const created = await session.call('POST', tasks, {
      json: { input: 'Please buy me a new set of cutting boards.' },
      expect: { 200: 'Task' },
    });
    steps = `${tasks}/${encodeURIComponent(expectBody<{ task_id: string }>(created).task_id)}/steps`;
    // No input: the task's own input is the request; an agent that needs more asks.
    for (let i = 1; i <= 20; i++) {
      const x = await session.call('POST', steps, { json: {}, expect: { 200: 'Step' } });
      const step = expectBody<StepBody>(x);
      if (step.status === 'awaiting_input') {
        if (step.is_last)
          throw new CheckFailure(`${x.label}: step ${step.step_id} awaits input but says is_last: true`);
        asked = step;
        return `step ${i} asked: ${JSON.stringify(step.output ?? null)}`;
      }
      if (step.is_last) break;
    }
    askedNothing = true;
    throw new CheckSkipped(notAsked);
  });
  const afterAsk = () => {
    if (askedNothing) throw new CheckSkipped(notAsked);
    requirePassed('ap.awaiting.ask');
  };
  const count = async () => {
    const x = await session.call('GET', `${steps}?page_size=100`, {
      expect: { 200: 'TaskStepsListResponse' },
    });
    return expectBody<{ steps?: StepBody[] }>(x).steps ?? [];
  };
  await check('ap.awaiting.answer-required', async () => {
    afterAsk();
    const before = await count();
    const x = await session.call('POST', steps, { json: {} });
    expectStatus(x, '4xx', 'no input while a question is open');
    const after = await count();
    if (after.length !== before.length || after.at(-1)?.status !== 'awaiting_input')
      throw new CheckFailure(
        `${x.label}: the refused step changed the task (${before.length} steps before, ${after.length} after)`,
      );
    return `refused with ${x.status}`;
  });
  await check('ap.awaiting.answer', async () => {
    afterAsk();
    let input = 'I like wood.';
    for (let i = 1; i <= 20; i++) {
      const x = await session.call('POST', steps, { json: input ? { input } : {}, expect: { 200: 'Step' } });
      const step = expectBody<StepBody>(x, 200, 'answering the question');
      if (step.step_id === asked?.step_id)
        throw new CheckFailure(`${x.label}: the answer came back as the question's own step ${step.step_id}`);
      if (step.is_last) {
        if (step.status !== 'completed')
          throw new CheckFailure(`${x.label}: the last step is ${step.status}, not completed`);
        return `answered; the task ended after ${i} more step${i === 1 ? '' : 's'}`;
      }
      // A further question is answered the same way; plain steps go on with no input.
      input = step.status === 'awaiting_input' ? 'Yes.' : '';
    }
    throw new CheckFailure(`POST ${steps}: no step said is_last within 20 steps after the answer`);
  });
}
