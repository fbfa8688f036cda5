// The reference Agent Protocol v1 agent (AIEF openapi.yml): the handlers, their task store (over any AgentStore), and
// the cutting-board agent of the awaiting_input extension. The conformance tests and `pnpm demo` run against it.
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { createAgentProtocolApp } from '../generated/v1/index.js';
import { createReferenceHandlers } from './handlers.js';
import { TaskStore } from './store.js';

export { createReferenceHandlers, STEPS_PER_TASK } from './handlers.js';
export {
  DEFAULT_TASK_LIMITS,
  type Page,
  paginate,
  type StoredTask,
  type TaskLimits,
  TaskStore,
} from './store.js';

/** The reference Agent Protocol v1 agent as a Hono app, its tasks in `store` (default: a fresh in-memory store). */
export function createReferenceAgent(options?: AppOptions, store = new TaskStore()): Hono {
  return createAgentProtocolApp(createReferenceHandlers(store), options);
}
export { createCuttingBoardAgent, cuttingBoardStep } from './cutting-board.js';
