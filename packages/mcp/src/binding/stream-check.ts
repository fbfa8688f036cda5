// The stream check the generated binding (src/generated/<revision>/binding.ts) gathers: every message of an answer's
// event stream or of a stdio capture against the revision's types, and the sequence against MCP's rules.
import type { StreamCheck } from '@agentproto/runtime/contract';
import { McpMessageCheck } from '../stream/message-check.js';
import { mcpVersion } from '../version-traits.js';

/** A fresh check for one stream of `version`. */
export const streamCheck = (version: string): StreamCheck => new McpMessageCheck(mcpVersion(version));
