// The draft-2025-02 event check, which the generated binding (src/generated/draft-2025-02/binding.ts) gathers: each
// event against its schema, and the order rules of EVENT_RULES (a turn starts with RequestStarted and ends with
// exactly one RequestCompleted).
import type { StreamCheck } from '@agentproto/runtime/contract';
import { EventStreamCheck } from '../runs/event-rules.js';

/** A fresh check for one event stream of the 2025 draft (its only version: the check does not depend on it). */
export const streamCheck = (_version: string): StreamCheck => new EventStreamCheck();
