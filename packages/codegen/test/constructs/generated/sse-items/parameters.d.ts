import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of streamTicks. */
export declare const streamTicks_path: Validator;
/** Coerces and validates the query parameters of streamTicks. */
export declare const streamTicks_query: Validator;
