import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Circle (https://agentproto.dev/schemas/unions/1/Circle.schema.json). */
export declare const Circle: Validator<components['schemas']["Circle"]>;
/** Validates a Square (https://agentproto.dev/schemas/unions/1/Square.schema.json). */
export declare const Square: Validator<components['schemas']["Square"]>;
/** Validates a Shape (https://agentproto.dev/schemas/unions/1/Shape.schema.json). */
export declare const Shape: Validator<components['schemas']["Shape"]>;
