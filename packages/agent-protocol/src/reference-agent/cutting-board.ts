// The awaiting_input RFC's own example as an agent: a step that asks the user a question ends `awaiting_input`, and
// the next step's input is the answer (RFC "bidirectional communication", option 1).
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { GENERATED } from '../generated/modules.js';
import type { Step as V1Step } from '../generated/v1/index.js';
import type {
  AgentProtocolHandlers,
  createAgentProtocolApp,
  ExecuteAgentTaskStepInput,
  ExecuteAgentTaskStepResult,
  Step,
} from '../generated/v1-awaiting-input/index.js';
import { VERSIONS, type Version } from '../generated/versions.js';
import { VERSION_TRAITS } from '../version-traits.js';
import { createReferenceHandlers } from './handlers.js';
import { TaskStore } from './store.js';

/**
 * The step handler of the RFC's cutting-board dialogue, with the awaiting_input extension: the first step asks
 * "wooden or plastic?" and finishes `awaiting_input` with the question as its output; the next step's input is the
 * answer, and the agent places the order. A step that should answer the question but has no input is refused (422).
 * The question and the answer may reach different processes when the store is shared: the task's steps are in it.
 */
export function cuttingBoardStep(store: TaskStore) {
  return async ({ params, body }: ExecuteAgentTaskStepInput): Promise<ExecuteAgentTaskStepResult> => {
    const stepId = await store.newId('step');
    const answer = await store.update(
      params.task_id,
      (stored): { result: ExecuteAgentTaskStepResult; write: boolean } => {
        // A step of v1 is one of this version's, which adds only the status `awaiting_input`.
        const previous: Step | undefined = stored.steps.at(-1);
        const answering = previous?.status === 'awaiting_input';
        if (answering && !body?.input) {
          return {
            write: false,
            result: {
              status: 422,
              contentType: 'application/problem+json',
              body: {
                type: 'https://agentproto.dev/problems/answer-required',
                title: 'Unprocessable Content',
                status: 422,
                detail: `step ${previous.step_id} asked a question; this step's input must answer it`,
                errors: [
                  { location: 'body', pointer: '/input', message: 'is required: it answers the question' },
                ],
              },
            },
          };
        }
        const step: Step = answering
          ? {
              task_id: params.task_id,
              step_id: stepId,
              name: 'order',
              status: 'completed',
              input: body?.input ?? null,
              output: `Ordered a set of ${/wood/i.test(body?.input ?? '') ? 'wooden' : 'plastic'} cutting boards.`,
              artifacts: [],
              is_last: true,
            }
          : {
              task_id: params.task_id,
              step_id: stepId,
              name: 'ask',
              status: 'awaiting_input',
              input: body?.input ?? stored.task.input ?? null,
              output: 'Would you like wooden or plastic cutting boards?',
              artifacts: [],
              is_last: false,
            };
        // sound: the store keeps steps as data, typed as v1's; the v1 handlers only read them back, and answer them
        // through this version's app, whose schemas allow `awaiting_input`.
        stored.steps.push(step as V1Step);
        return { write: true, result: { status: 200, body: step } };
      },
    );
    return answer ?? { status: 404, body: { message: `no task with id "${params.task_id}"` } };
  };
}

/**
 * The cutting-board agent on a version with the awaiting_input extension (its `awaitingInput` trait; by default the
 * first such version the manifest lists), as a Hono app on that version's generated routes.
 */
export function createCuttingBoardAgent(
  options?: AppOptions,
  store = new TaskStore(),
  version: Version = AWAITING_INPUT_VERSION,
): Hono {
  if (!VERSION_TRAITS[version].awaitingInput)
    throw new Error(`Agent Protocol ${version} has no awaiting_input: the cutting board cannot speak it`);
  const handlers: AgentProtocolHandlers = {
    ...createReferenceHandlers(store),
    executeAgentTaskStep: cuttingBoardStep(store),
  };
  // sound: the version has the awaiting_input trait, so its steps are v1's widened by `awaiting_input`, the types
  // these handlers are written against.
  const createApp = GENERATED[version].createAgentProtocolApp as typeof createAgentProtocolApp;
  return createApp(handlers, options);
}

/** The first version the manifest lists with the awaiting_input extension. */
const AWAITING_INPUT_VERSION: Version = (() => {
  const found = VERSIONS.find((v) => VERSION_TRAITS[v].awaitingInput);
  if (!found) throw new Error('no Agent Protocol version has the awaiting_input trait');
  return found;
})();
