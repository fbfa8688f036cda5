import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Base (https://agentproto.dev/schemas/allof-chain/1/Base.schema.json). */
export declare const Base: Validator<components['schemas']["Base"]>;
/** Validates a Named (https://agentproto.dev/schemas/allof-chain/1/Named.schema.json). */
export declare const Named: Validator<components['schemas']["Named"]>;
/** Validates a Person (https://agentproto.dev/schemas/allof-chain/1/Person.schema.json). */
export declare const Person: Validator<components['schemas']["Person"]>;
/** Validates an inline schema of the OpenAPI document. */
export declare const listPeople_response200_0: Validator;
