import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Note (https://agentproto.dev/schemas/nullable/1/Note.schema.json). */
export declare const Note: Validator<components['schemas']["Note"]>;
