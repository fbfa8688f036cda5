// What checking Agent Protocol v1 messages needs (validators only: the protocol has no streams or document rules).
import type { ProtocolBinding, Validator } from '@agentproto/runtime/documents';
import { PATHS } from '../generated/v1/paths.js';
import * as validators from '../generated/v1/validators.js';

/** Agent Protocol v1, for validators and the conformance kit: loads no server or client code. */
export const binding: ProtocolBinding = {
  protocol: 'agent-protocol',
  version: 'v1',
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
};
