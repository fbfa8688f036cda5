// What checking Agent Protocol v1 messages with the awaiting_input extension needs (validators only).
import type { ProtocolBinding, Validator } from '@agentproto/runtime/documents';
import { PATHS } from '../generated/v1-awaiting-input/paths.js';
import * as validators from '../generated/v1-awaiting-input/validators.js';

/** Agent Protocol v1 with the awaiting_input RFC, for validators and the conformance kit: no server or client code. */
export const binding: ProtocolBinding = {
  protocol: 'agent-protocol',
  version: 'v1-awaiting-input',
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
};
