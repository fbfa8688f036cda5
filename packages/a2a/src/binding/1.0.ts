// The A2A 1.0 stream check, which the generated binding (src/generated/1.0/binding.ts) gathers: each event against
// StreamResponse (unwrapped from its JSON-RPC response when it has one) and the order rules of STREAM_RULES.
import type { StreamCheck } from '@agentproto/runtime/documents';
import { A2aStreamCheck } from '../stream/stream-rules.js';

/** A fresh check for one A2A stream; 1.0 is the only version, so the check does not depend on it. */
export const streamCheck = (_version: string): StreamCheck => new A2aStreamCheck();
