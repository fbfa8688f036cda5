// The reference Agent Protocol v1 agent (AIEF openapi.yml): the handlers, their task store (over any AgentStore), and
// the cutting-board agent of the awaiting_input extension. The conformance tests and `pnpm demo` run against it.
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { GENERATED } from '../generated/modules.js';
import type { createAgentProtocolApp } from '../generated/v1/index.js';
import { LATEST, type Version } from '../generated/versions.js';
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

/**
 * The reference Agent Protocol agent as a Hono app, its tasks in `store` (default: a fresh in-memory store), on the
 * generated routes of `version` (default: the latest), which check requests and answers against its schemas.
 */
export function createReferenceAgent(
  options?: AppOptions,
  store = new TaskStore(),
  version: Version = LATEST,
): Hono {
  // sound: every version's app takes v1's handlers: a version's steps are v1's, or v1's widened by an extension
  // (the manifest's traits), so what v1's handlers return is one of its answers.
  const createApp = GENERATED[version].createAgentProtocolApp as typeof createAgentProtocolApp;
  return createApp(createReferenceHandlers(store), options);
}
export { createCuttingBoardAgent, cuttingBoardStep } from './cutting-board.js';
