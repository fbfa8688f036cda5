import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of listPeople. */
export declare const listPeople_path: Validator;
/** Coerces and validates the query parameters of listPeople. */
export declare const listPeople_query: Validator;
