// The reference Agent Protocol v1 agent (AIEF openapi.yml): the handlers, their in-memory store, and the cutting-board
// agent of the awaiting_input extension. The conformance tests and `pnpm demo` run against it.
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import { createAgentProtocolApp } from '../generated/v1/index.js';
import { createReferenceHandlers } from './handlers.js';
import { MemoryStore } from './store.js';

export { createReferenceHandlers, STEPS_PER_TASK } from './handlers.js';
export { DEFAULT_TASK_RETENTION, MemoryStore, type Page, paginate, type TaskRetention } from './store.js';

/** The reference Agent Protocol v1 agent as a Hono app, with a fresh in-memory store. */
export function createReferenceAgent(options?: AppOptions): Hono {
  return createAgentProtocolApp(createReferenceHandlers(new MemoryStore()), options);
}
export { createCuttingBoardAgent, cuttingBoardStep } from './cutting-board.js';
