// What checking Agent Protocol draft-2025-02 messages needs: the validators and the event rules (EVENT_RULES).
import type { ProtocolBinding, Validator } from '@agentproto/runtime/documents';
import { PATHS } from '../generated/draft-2025-02/paths.js';
import * as validators from '../generated/draft-2025-02/validators.js';
import { EventStreamCheck } from '../runs/event-rules.js';

/** Agent Protocol draft-2025-02, for validators and the conformance kit: no server, run store or client code. */
export const binding: ProtocolBinding = {
  protocol: 'agent-protocol-2025',
  version: 'draft-2025-02',
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
  streamCheck: () => new EventStreamCheck(),
};
