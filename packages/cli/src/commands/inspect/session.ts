// A recorded inspector session, as NDJSON: a header line naming the protocol version and the agent, then one record
// per message in the order seen (requests, answers, stream items, and where each stream ended). `agentproto validate`
// checks such a file with the same checks the inspector showed live (SessionChecker, below).
import type { ProtocolBinding, StreamCheck, StreamIssue } from '@agentproto/runtime/contract';
import { checkMessage, type MessageIssue } from '../../message-check.js';

/** The first line of a session file. */
export interface SessionHeader {
  agentprotoSession: 1;
  protocol: string;
  version: string;
  /** The agent's root URL. */
  target: string;
  started: string;
}

/** One message of a session. */
export interface SessionRecord {
  /** Which request/answer pair it belongs to (1-based, in the order sent). */
  exchange: number;
  /** `end` marks where a stream stopped: `complete` when the agent closed it, not when the user or a limit cut it. */
  direction: 'request' | 'response' | 'event' | 'end';
  at: string;
  /** The operation (its operationId) or JSON-RPC method. */
  operation: string;
  /** The public type the message is checked as; absent when it has none (an undeclared answer, a JSON-RPC error). */
  type?: string;
  /** HTTP status of a response. */
  status?: number;
  /**
   * For events: checked by the protocol's stream check (items typed by their discriminator, order rules). On a
   * response: the answer is a stream, whose items follow as events.
   */
  stream?: boolean;
  complete?: boolean;
  message?: unknown;
}

/** The line a session file starts with. */
export function isSessionHeader(value: unknown): value is SessionHeader {
  return (
    typeof value === 'object' &&
    value !== null &&
    'agentprotoSession' in value &&
    value.agentprotoSession === 1
  );
}

/** An issue of a record: the message's (schema or rule) or the stream's (order, end). */
export type SessionIssue = MessageIssue & { index?: number };

/**
 * Checks a session's records in order: each typed message against its type (and the protocol's document rules);
 * stream items through one stream check per exchange, whose end rules run when the record says the agent closed the
 * stream.
 */
export class SessionChecker {
  private readonly streams = new Map<number, { check: StreamCheck; items: number }>();

  constructor(private readonly binding: ProtocolBinding) {}

  /** The issues of one record. */
  push(record: SessionRecord): SessionIssue[] {
    if (record.direction === 'end') {
      const open = this.streams.get(record.exchange);
      this.streams.delete(record.exchange);
      return open && record.complete ? open.check.end().map(fromStream) : [];
    }
    if (record.direction === 'response' && record.stream) return [];
    if (record.direction === 'event' && record.stream && this.binding.streamCheck) {
      let open = this.streams.get(record.exchange);
      if (!open) {
        open = { check: this.binding.streamCheck(), items: 0 };
        this.streams.set(record.exchange, open);
      }
      open.items++;
      return open.check.push(record.message, { index: open.items }).map(fromStream);
    }
    return record.type === undefined ? [] : checkMessage(this.binding, record.type, record.message);
  }
}

function fromStream(i: StreamIssue): SessionIssue {
  return {
    pointer: i.pointer,
    message: i.message,
    rule: i.rule === 'schema' ? (i.type ?? 'schema') : i.rule,
    index: i.index,
  };
}
