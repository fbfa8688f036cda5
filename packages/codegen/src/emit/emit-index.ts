import type { ProtocolModel } from '../model/protocol-model.js';
import { doc } from './code.js';

/** Emits the `index.ts` of a generated version folder. */
export function emitIndex(model: ProtocolModel): string {
  return [
    `export * from './client.js';`,
    `${doc(`Types of the ${model.title} ${model.version} messages and HTTP surface.`)}export type * from './openapi.js';`,
    `export * from './paths.js';`,
    `export * from './routes.js';`,
    `${doc('One standalone validator per public type: `validators.Task(value)` is a type guard; every error stays on it.')}export * as validators from './validators.js';`,
    `${doc('The same validators, stopping at the first error: for callers that only need where a message first goes wrong.')}export * as firstError from './first-error.js';`,
    '',
  ].join('\n');
}
