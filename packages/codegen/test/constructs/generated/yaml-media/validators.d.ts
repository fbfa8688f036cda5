import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Card (https://agentproto.dev/schemas/yaml-media/1/Card.schema.json). */
export declare const Card: Validator<components['schemas']["Card"]>;
/** Validates an inline schema of the OpenAPI document. */
export declare const readLines_response200_item_0: Validator;
