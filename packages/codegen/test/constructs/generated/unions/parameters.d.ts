import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of addShape. */
export declare const addShape_path: Validator;
/** Coerces and validates the query parameters of addShape. */
export declare const addShape_query: Validator;
