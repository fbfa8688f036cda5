// The AgentScope stream check, which every version's generated binding (src/generated/<version>/binding.ts) gathers:
// every event is typed by its `object` field, checked against that version's schemas and STREAM_RULES.
import type { StreamCheck } from '@agentproto/runtime/contract';
import { AgentScopeStreamCheck } from '../stream/stream-rules.js';
import { agentScopeVersion } from '../version-traits.js';

/** A fresh check for one stream of the named AgentScope version. */
export const streamCheck = (version: string): StreamCheck =>
  new AgentScopeStreamCheck(agentScopeVersion(version));
