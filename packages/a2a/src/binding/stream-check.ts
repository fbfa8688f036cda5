// The stream check the generated binding (src/generated/<version>/binding.ts) gathers: each event against the
// version's StreamResponse (unwrapped from its JSON-RPC response when it has one) and the order rules of STREAM_RULES.
import type { StreamCheck } from '@agentproto/runtime/contract';
import { A2aStreamCheck } from '../stream/stream-rules.js';
import { a2aVersion } from '../version-data.js';

/** A fresh check for one stream of `version`. */
export const streamCheck = (version: string): StreamCheck => new A2aStreamCheck(a2aVersion(version));
