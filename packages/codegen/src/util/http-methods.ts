// The operations a path item of an OpenAPI 3.1 document may hold (§4.8.9.1), in the specification's order: the
// validate stage checks them and the model stage reads them, from this one list.

/** The HTTP methods an OpenAPI 3.1 path item names operations by, lowercase as the document writes them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One of HTTP_METHODS. */
export type HttpMethod = (typeof HTTP_METHODS)[number];
