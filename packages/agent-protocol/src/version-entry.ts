// What `@agentproto/agent-protocol/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`: the reference agent on that version's generated routes.
import type { AppOptions } from '@agentproto/runtime';
import type { Hono } from 'hono';
import type { Version } from './generated/versions.js';
import { createReferenceAgent, TaskStore } from './reference-agent/index.js';

export type { AgentProtocolTraits } from './version-traits.js';

/** What the entry point of `version` binds to it. */
export function forVersion(version: Version) {
  return {
    /**
     * The reference agent as a Hono app, its tasks in `store` (default: in memory); the version's routes check
     * requests and answers against its schemas.
     */
    createReferenceAgent: (options?: AppOptions, store: TaskStore = new TaskStore()): Hono =>
      createReferenceAgent(options, store, version),
  };
}
