// The awaiting_input RFC's own example as an agent: a step that asks the user a question ends `awaiting_input`, and
// the next step's input is the answer (RFC "bidirectional communication", option 1).
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import type {
  AgentProtocolHandlers,
  ExecuteAgentTaskStepInput,
  ExecuteAgentTaskStepResult,
  Step,
} from '../generated/v1-awaiting-input/index.js';
import { createAgentProtocolApp } from '../generated/v1-awaiting-input/index.js';
import { createReferenceHandlers } from './handlers.js';
import { MemoryStore } from './store.js';

/**
 * The step handler of the RFC's cutting-board dialogue, with the awaiting_input extension: the first step asks
 * "wooden or plastic?" and finishes `awaiting_input` with the question as its output; the next step's input is the
 * answer, and the agent places the order. A step that should answer the question but has no input is refused (422).
 */
export function cuttingBoardStep(store: MemoryStore) {
  return ({ params, body }: ExecuteAgentTaskStepInput): ExecuteAgentTaskStepResult => {
    const stored = store.get(params.task_id);
    if (!stored) return { status: 404, body: { message: `no task with id "${params.task_id}"` } };
    const previous = stored.steps.at(-1) as Step | undefined;
    const answering = previous?.status === 'awaiting_input';
    if (answering && !body?.input) {
      return {
        status: 422,
        contentType: 'application/problem+json',
        body: {
          type: 'https://agentproto.dev/problems/answer-required',
          title: 'Unprocessable Content',
          status: 422,
          detail: `step ${previous.step_id} asked a question; this step's input must answer it`,
          errors: [{ location: 'body', pointer: '/input', message: 'is required: it answers the question' }],
        },
      };
    }
    const step: Step = answering
      ? {
          task_id: params.task_id,
          step_id: store.newId('step'),
          name: 'order',
          status: 'completed',
          input: body?.input ?? null,
          output: `Ordered a set of ${/wood/i.test(body?.input ?? '') ? 'wooden' : 'plastic'} cutting boards.`,
          artifacts: [],
          is_last: true,
        }
      : {
          task_id: params.task_id,
          step_id: store.newId('step'),
          name: 'ask',
          status: 'awaiting_input',
          input: body?.input ?? stored.task.input ?? null,
          output: 'Would you like wooden or plastic cutting boards?',
          artifacts: [],
          is_last: false,
        };
    // The store keeps steps as data; the v1 handlers only read them back.
    stored.steps.push(step as never);
    return { status: 200, body: step };
  };
}

/** The cutting-board agent on Agent Protocol v1 with the awaiting_input extension, as a Hono app. */
export function createCuttingBoardAgent(options?: AppOptions): Hono {
  const store = new MemoryStore();
  const handlers: AgentProtocolHandlers = {
    ...createReferenceHandlers(store),
    executeAgentTaskStep: cuttingBoardStep(store),
  };
  return createAgentProtocolApp(handlers, options);
}
