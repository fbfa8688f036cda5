import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of getNote. */
export declare const getNote_path: Validator;
/** Coerces and validates the query parameters of getNote. */
export declare const getNote_query: Validator;
