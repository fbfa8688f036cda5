// What submitting a request answers: the Submitted outcome, or a RequestRefused that the server maps to an HTTP
// problem. Every part of the runtime may refuse a request, so these sit below all of them.
import type { ValidationIssue } from '@agentproto/runtime';
import type { AgentEvent } from '../generated/draft-2025-02/index.js';

/** A request the runtime refuses, with the HTTP status and problem kind it maps to. */
export class RequestRefused extends Error {
  override name = 'RequestRefused';
  constructor(
    readonly status: 404 | 409 | 422,
    readonly kind: string,
    message: string,
    readonly issues?: readonly ValidationIssue[],
  ) {
    super(message);
  }
}

/** The outcome of submitting a request: the request it concerns, and its first answer. */
export interface Submitted {
  requestId: string;
  runId: number;
  /** The event `process?wait=true` answers with. */
  first: AgentEvent;
}
