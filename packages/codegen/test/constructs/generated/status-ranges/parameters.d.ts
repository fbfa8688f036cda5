import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of placeOrder. */
export declare const placeOrder_path: Validator;
/** Coerces and validates the query parameters of placeOrder. */
export declare const placeOrder_query: Validator;
