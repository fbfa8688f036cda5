// Response keys of an OpenAPI document (OpenAPI 3.1 §4.8.16.2): an exact status (`"200"`), a range (`"2XX"`, any
// status of that class) or `"default"` (any status no other key names). The generated handler result types name a
// range's statuses with StatusOf, and the runtime finds an answer's declared response with declaredResponse.

/** The statuses IANA registers, by class: what a range key stands for in a handler's result type. */
export interface StatusClasses {
  '1XX': 100 | 101 | 102 | 103;
  '2XX': 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226;
  '3XX': 300 | 301 | 302 | 303 | 304 | 305 | 307 | 308;
  '4XX':
    | 400
    | 401
    | 402
    | 403
    | 404
    | 405
    | 406
    | 407
    | 408
    | 409
    | 410
    | 411
    | 412
    | 413
    | 414
    | 415
    | 416
    | 417
    | 421
    | 422
    | 423
    | 424
    | 425
    | 426
    | 428
    | 429
    | 431
    | 451;
  '5XX': 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 510 | 511;
}

/** The statuses a response key covers: a range's registered statuses, or every registered status for `default`. */
export type StatusOf<Key extends string> = Key extends keyof StatusClasses
  ? StatusClasses[Key]
  : Key extends 'default'
    ? StatusClasses[keyof StatusClasses]
    : never;

/**
 * The declared response for a status: its exact key first, then its class's range (`4XX`), then `default`
 * (OpenAPI 3.1: the more specific key wins).
 */
export function declaredResponse<T>(responses: Readonly<Record<string, T>>, status: number): T | undefined {
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}
