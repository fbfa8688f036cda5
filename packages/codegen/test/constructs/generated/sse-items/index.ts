export * from './client.js';
/** Types of the Construct sse-items 1 messages and HTTP surface. */
export type * from './openapi.js';
export * from './paths.js';
export * from './routes.js';
/** One standalone validator per public type: `validators.Task(value)` is a type guard; every error stays on it. */
export * as validators from './validators.js';
