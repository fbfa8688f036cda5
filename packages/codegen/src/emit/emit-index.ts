import type { ProtocolModel } from '../model/protocol-model.js';

/** Emits the `index.ts` of a generated version folder. */
export function emitIndex(model: ProtocolModel): string {
  return `export * from './client.js';
export type * from './openapi.js';
export * from './routes.js';
${'/** One standalone validator per public type: `validators.Task(value)` is a type guard; errors stay on it. */'}
export * as validators from './validators.js';
`.replace(
    'export type * from',
    `/** Types of the ${model.title} ${model.version} messages and HTTP surface. */\nexport type * from`,
  );
}
