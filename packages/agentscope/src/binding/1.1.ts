// What checking AgentScope 1.1 messages needs: the validators and the stream rules (STREAM_RULES), no server code.
import type { ProtocolBinding, Validator } from '@agentproto/runtime/documents';
import { PATHS } from '../generated/1.1/paths.js';
import * as validators from '../generated/1.1/validators.js';
import { AgentScopeStreamCheck } from '../stream/stream-rules.js';

/** AgentScope 1.1, for validators and the conformance kit: a stream is checked item by item against STREAM_RULES. */
export const binding: ProtocolBinding = {
  protocol: 'agentscope',
  version: '1.1',
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
  streamCheck: () => new AgentScopeStreamCheck('1.1'),
};
