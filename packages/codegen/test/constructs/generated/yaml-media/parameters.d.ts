import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of getCard. */
export declare const getCard_path: Validator;
/** Coerces and validates the query parameters of getCard. */
export declare const getCard_query: Validator;
/** Coerces and validates the path parameters of readLines. */
export declare const readLines_path: Validator;
/** Coerces and validates the query parameters of readLines. */
export declare const readLines_query: Validator;
