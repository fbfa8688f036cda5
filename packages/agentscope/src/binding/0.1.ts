// The AgentScope 0.1 stream check, which the generated binding (src/generated/0.1/binding.ts) gathers: every event is
// typed by its `object` field and checked against STREAM_RULES (the order of a response's events).
import type { StreamCheck } from '@agentproto/runtime/documents';
import { AgentScopeStreamCheck } from '../stream/stream-rules.js';

/** A fresh check for one AgentScope 0.1 stream. */
export const streamCheck = (): StreamCheck => new AgentScopeStreamCheck('0.1');
