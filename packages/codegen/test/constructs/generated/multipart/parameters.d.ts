import type { Validator } from '@agentproto/runtime';

/** Coerces and validates the path parameters of uploadFile. */
export declare const uploadFile_path: Validator;
/** Coerces and validates the query parameters of uploadFile. */
export declare const uploadFile_query: Validator;
