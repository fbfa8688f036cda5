export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Tick
         * @description One event of a stream.
         */
        Tick: {
            seq: number;
            /** @description Anything at all. */
            note?: unknown;
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type Tick = components['schemas']['Tick'];
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
