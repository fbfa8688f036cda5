import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Tick (https://agentproto.dev/schemas/sse-items/1/Tick.schema.json). */
export declare const Tick: Validator<components['schemas']["Tick"]>;
