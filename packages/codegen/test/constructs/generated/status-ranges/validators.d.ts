import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Receipt (https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json). */
export declare const Receipt: Validator<components['schemas']["Receipt"]>;
/** Validates a Failure (https://agentproto.dev/schemas/status-ranges/1/Failure.schema.json). */
export declare const Failure: Validator<components['schemas']["Failure"]>;
/** Validates an inline schema of the OpenAPI document. */
export declare const placeOrder_responsedefault_0: Validator;
