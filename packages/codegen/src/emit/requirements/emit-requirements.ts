// Emits `requirements.ts`: a version's requirements as data, for the binding (the kit's `--coverage` table and the
// test that every requirement is covered or excluded read it from there); and `client-requirements.ts`, what the
// version requires of a client, which the client scenarios' checks cover the same way.
import type { ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, literal, ts } from '../code.js';

/** The requirements of one protocol version, as a constant the binding imports. */
export function emitRequirements(model: ProtocolModel): Code {
  const list = model.requirements?.list ?? [];
  return ts`import type { Requirement } from '@agentproto/runtime/contract';

${doc(`What ${model.binding.title} requires, in our words: each statement's id, level and source.`)}export const REQUIREMENTS: readonly Requirement[] = ${literal(list, 2)};
`;
}

/** What one protocol version requires of a client, as a constant the binding imports. */
export function emitClientRequirements(model: ProtocolModel): Code {
  const list = model.clientRequirements?.list ?? [];
  return ts`import type { Requirement } from '@agentproto/runtime/contract';

${doc(`What ${model.binding.title} requires of a client, in our words: each statement's id, level and source.`)}export const CLIENT_REQUIREMENTS: readonly Requirement[] = ${literal(list, 2)};
`;
}
