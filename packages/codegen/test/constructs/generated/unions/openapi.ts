export interface paths {
    "/shapes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["addShape"];
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
         * Circle
         * @description A circle.
         */
        Circle: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "circle";
            radius: number;
        } & {
            [key: string]: unknown;
        };
        /**
         * Square
         * @description A square.
         */
        Square: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "square";
            side: number;
        } & {
            [key: string]: unknown;
        };
        /**
         * Shape
         * @description A circle or a square, by `kind`.
         */
        Shape: components["schemas"]["Circle"] | components["schemas"]["Square"];
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type Circle = components['schemas']['Circle'];
export type Square = components['schemas']['Square'];
export type Shape = components['schemas']['Shape'];
export type $defs = Record<string, never>;
export interface operations {
    addShape: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Shape"];
            };
        };
        responses: {
            /** @description the shape */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shape"];
                };
            };
        };
    };
}
