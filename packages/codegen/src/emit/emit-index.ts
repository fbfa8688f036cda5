// Emits the `index.ts` of a generated version folder: what `@agentproto/<protocol>/<version>` re-exports.
import type { ProtocolModel } from '../model/protocol-model.js';
import { type Code, doc, ts } from './code.js';

/** Emits the `index.ts` of a generated version folder. */
export function emitIndex(model: ProtocolModel): Code {
  return ts`export * from './client.js';
${doc(`Types of the ${model.title} ${model.version} messages and HTTP surface.`)}export type * from './openapi.js';
export * from './paths.js';
export * from './routes.js';
${doc('One standalone validator per public type: `validators.Task(value)` is a type guard; every error stays on it.')}export * as validators from './validators.js';
`;
}
