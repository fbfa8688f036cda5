import type { ProtocolModel } from '../model/protocol-model.js';
import { doc } from './code.js';

/** Emits the `index.ts` of a generated version folder. */
export function emitIndex(model: ProtocolModel): string {
  return [
    `export * from './client.js';`,
    `${doc(`Types of the ${model.title} ${model.version} messages and HTTP surface.`)}export type * from './openapi.js';`,
    `export * from './routes.js';`,
    `${doc('One standalone validator per public type: `validators.Task(value)` is a type guard; errors stay on it.')}export * as validators from './validators.js';`,
    '',
  ].join('\n');
}
