import type { Validator } from '@agentproto/runtime';
import type { components } from './openapi.js';

/** Validates a Upload (https://agentproto.dev/schemas/multipart/1/Upload.schema.json). */
export declare const Upload: Validator<components['schemas']["Upload"]>;
