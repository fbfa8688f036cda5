export interface paths {
    "/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listPeople"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Base
         * @description What every record has.
         */
        Base: {
            id: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * Named
         * @description A record with a name.
         */
        Named: ({
            name: string;
        } & {
            [key: string]: unknown;
        }) & components["schemas"]["Base"];
        /**
         * Person
         * @description A named record with an age; no other keys.
         */
        Person: ({
            age?: number;
        } & {
            [key: string]: unknown;
        }) & components["schemas"]["Named"];
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type Base = components['schemas']['Base'];
export type Named = components['schemas']['Named'];
export type Person = components['schemas']['Person'];
export type $defs = Record<string, never>;
export interface operations {
    listPeople: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description everyone */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"][];
                };
            };
        };
    };
}
