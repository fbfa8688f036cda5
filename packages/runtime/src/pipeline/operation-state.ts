// What the steps of an HTTP operation leave for each other, one object per request.
import type { ContentSpec, HandlerInput, HandlerResult } from '../operation-app.js';

/** The state of one request to an operation, filled in step by step. */
export class OperationState {
  /** The path parameters, checked (checkParams). */
  params: unknown = undefined;
  /** The query parameters, checked (checkParams). */
  query: unknown = undefined;
  /** The request body, read and checked (readBodyStep). */
  body: unknown = undefined;
  /** What the handler got (dispatch). */
  input: (HandlerInput & { controller(): AbortController }) | undefined = undefined;
  /** What the handler answered (dispatch). */
  result: HandlerResult | undefined = undefined;
  /** The declared media type the answer is sent as (checkResponse). */
  content: ContentSpec | undefined = undefined;
  /** The answer's headers (checkResponse); undefined for a status declared without content and answered without. */
  headers: Record<string, string> | undefined = undefined;
  /** For a stream checked item by item: what is wrong with an item, or undefined (checkResponse). */
  itemCheck: ((item: unknown, index: number) => string | undefined) | undefined = undefined;
}
