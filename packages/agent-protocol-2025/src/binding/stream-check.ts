// The event check, which each version's generated binding (src/generated/<version>/binding.ts) gathers: each event
// against that version's AgentEvent schema, and the order rules of EVENT_RULES (a turn starts with RequestStarted and
// ends with exactly one RequestCompleted).
import type { StreamCheck } from '@agentproto/runtime/contract';
import { isVersion, VERSIONS } from '../generated/versions.js';
import { EventStreamCheck } from '../runs/event-rules.js';

/** A fresh check for one event stream of `version`, judged by that version's own schemas. */
export const streamCheck = (version: string): StreamCheck => {
  if (!isVersion(version))
    throw new Error(`Agent Protocol (draft 2025) has no version "${version}": ${VERSIONS.join(', ')}`);
  return new EventStreamCheck(version);
};
