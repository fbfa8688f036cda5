// The 2025 draft's event-order rules (README of 2025-02-21, "Events"): what JSON Schema cannot say about a stream of
// events, because it spans several (a turn starts with RequestStarted and ends with exactly one RequestCompleted).
import {
  describeErrors,
  type ItemPosition,
  type StreamCheck,
  type StreamIssue,
  streamIssue,
} from '@agentproto/runtime/contract';
import { GENERATED } from '../generated/modules.js';
import { LATEST, type Version } from '../generated/versions.js';

/** The ordering rules of a run's events, by id: what the draft says of requests and turns, beyond each event's schema. */
export const EVENT_RULES = {
  'ids-increase': 'event ids increase within a run',
  'request-starts': "a request's first event is RequestStarted",
  'one-completion': 'a request ends with exactly one RequestCompleted, and publishes nothing after it',
  'request-completes': 'every request a stream started has completed when the stream ends',
} as const;

/** The id of an event rule. */
export type EventRule = keyof typeof EVENT_RULES;

/**
 * Checks a stream of events (one request's, or a whole run's) one at a time: each against the version's AgentEvent,
 * then against EVENT_RULES. It keeps the last id per run and the state of each request it has seen.
 */
export class EventStreamCheck implements StreamCheck {
  private readonly lastId = new Map<number, number>();
  private readonly requests = new Map<string, 'open' | 'completed'>();
  private readonly validators;

  /** A check of `version`'s events, by its own schemas (default: the latest version). */
  constructor(version: Version = LATEST) {
    this.validators = GENERATED[version].validators;
  }

  push(item: unknown, at: ItemPosition): StreamIssue[] {
    const issues: StreamIssue[] = [];
    const add = (rule: EventRule | 'schema', pointer: string, message: string) =>
      issues.push(streamIssue(at, rule, pointer, message, rule === 'schema' ? 'AgentEvent' : undefined));
    const { validators } = this;
    if (!validators.AgentEvent(item)) {
      for (const i of describeErrors(validators.AgentEvent.errors)) add('schema', i.pointer, i.message);
      return issues;
    }
    const event = item;
    const last = this.lastId.get(event.run_id);
    if (last !== undefined && event.id <= last)
      add('ids-increase', '/id', `must be greater than ${last}, the run's previous event id`);
    this.lastId.set(event.run_id, Math.max(event.id, last ?? 0));
    if (event.request_id === undefined) return issues;
    const state = this.requests.get(event.request_id);
    if (state === 'completed')
      add('one-completion', '/type', `request "${event.request_id}" already completed`);
    else if (state === undefined && event.type !== 'RequestStarted')
      add(
        'request-starts',
        '/type',
        `request "${event.request_id}" must start with RequestStarted, not ${event.type}`,
      );
    if (state !== 'completed')
      this.requests.set(event.request_id, event.type === 'RequestCompleted' ? 'completed' : 'open');
    return issues;
  }

  end(): StreamIssue[] {
    return [...this.requests]
      .filter(([, state]) => state === 'open')
      .map(([id]) => ({
        index: 0,
        pointer: '',
        message: `request "${id}" never completed`,
        rule: 'request-completes',
      }));
  }
}
