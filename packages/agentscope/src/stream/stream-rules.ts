// The AgentScope stream rules (cookbook protocol.md; upstream's Runner and ResponseBuilder): what JSON Schema cannot
// say about a stream of events, and the check that applies them item by item.
import { createHash, type Hash } from 'node:crypto';
import {
  describeErrors,
  type ItemPosition,
  type StreamCheck,
  type StreamIssue,
  streamIssue,
  type Validator,
} from '@agentproto/runtime/contract';
import { GENERATED } from '../generated/modules.js';
import { isObjectLike } from '../is-object-like.js';
import { type AgentScopeTraits, type AgentScopeVersion, VERSION_TRAITS } from '../version-traits.js';

export type { AgentScopeVersion } from '../version-traits.js';

/**
 * The stream rules, by id. Each one is a sentence of the protocol (or of upstream's Runner and ResponseBuilder, which
 * every upstream client relies on) that JSON Schema cannot say, because it spans several events.
 */
export const STREAM_RULES = {
  'first-created': 'the stream opens with a response event whose status is `created`',
  'one-response': 'every response event of a stream carries the id of the first one',
  'sequence-number': '1.1: every event carries a sequence_number that is greater than the one before',
  'message-announced': "a content event's msg_id names a message announced earlier and not yet completed",
  'message-open': 'a message event for an id that already completed does not reopen it',
  'delta-concat': 'the deltas of a content part, concatenated, equal the text of its completed event',
  'content-open': 'no delta arrives for a content part after it completed',
  'message-completes-first':
    'a response completes only after every message and content part it announced did',
  'one-terminal':
    'exactly one terminal response (completed, failed, canceled, rejected, incomplete) ends the stream',
  'after-terminal': 'nothing follows the terminal response (or an error frame)',
} as const;

/** The id of a stream rule. */
export type StreamRule = keyof typeof STREAM_RULES;

/** How a checked stream ended. */
export type StreamOutcome =
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'rejected'
  | 'incomplete'
  | 'error-frame'
  | 'open';

/** The statuses that end a response, and so the stream. */
type TerminalStatus = Exclude<StreamOutcome, 'error-frame' | 'open'>;
const TERMINAL: ReadonlySet<string> = new Set<TerminalStatus>([
  'completed',
  'failed',
  'canceled',
  'rejected',
  'incomplete',
]);

/** Whether a response's status ends it. */
function isTerminal(status: string): status is TerminalStatus {
  return TERMINAL.has(status);
}

// Text-bearing content types, and the field that carries their text.
const TEXT_FIELD: Readonly<Record<string, string>> = { text: 'text', refusal: 'refusal' };
// Enough recently completed message ids to say "already completed" instead of "never announced" in practice,
// without letting the state grow with the stream.
const RECENT_LIMIT = 256;

type Json = Record<string, unknown>;

// The delta texts of one open part are kept, and compared with the completed text directly, up to this many
// characters; past it they go into a running hash instead. One hash update per delta costs a call into the crypto
// binding per event, which a proxy checking every event on the way pays on every stream.
const DELTA_TEXT_KEPT = 64 * 1024;

interface OpenPart {
  type: string;
  /** Whether the part's type carries text (its deltas are compared with the completed text). */
  text: boolean;
  /** The delta texts so far, while they total at most DELTA_TEXT_KEPT characters. */
  pieces: string[];
  length: number;
  /** Running hash of the delta texts once they are longer: their concatenation compared without keeping it. */
  hash: Hash | undefined;
  deltas: number;
}

/**
 * Checks an AgentScope `/process` stream one event at a time: each frame against its schema (chosen by `object`,
 * so errors name the right type), then against STREAM_RULES. State is bounded by what is open at once (messages and
 * content parts) plus a fixed window of recent ids, never by the length of the stream.
 */
export class AgentScopeStreamCheck implements StreamCheck {
  readonly version: AgentScopeVersion;
  private readonly traits: AgentScopeTraits;
  /** How the stream ended, once `end()` ran (or a terminal event arrived). */
  outcome: StreamOutcome = 'open';
  private readonly validators: Readonly<Record<string, Validator>>;
  private events = 0;
  private responseId: string | undefined;
  private lastSequence: number | undefined;
  private readonly openMessages = new Set<string>();
  private readonly recentlyCompleted = new Set<string>();
  private readonly openParts = new Map<string, OpenPart>();
  private readonly completedParts = new Set<string>();

  constructor(version: AgentScopeVersion) {
    this.version = version;
    this.traits = VERSION_TRAITS[version];
    // The version's own validators: a version added by copying another checks against its own schemas.
    this.validators = GENERATED[version].validators;
  }

  /** How many ids and parts the check holds right now: bounded, whatever the length of the stream. */
  get stateSize(): number {
    return (
      this.openMessages.size + this.recentlyCompleted.size + this.openParts.size + this.completedParts.size
    );
  }

  /** The issues of the item being pushed, and its position: what `add` writes to. */
  private issues: StreamIssue[] = [];
  private at: ItemPosition = { index: 0 };
  // One function per check, not one per item: a proxy pushes every event of every stream through here.
  private readonly add = (rule: StreamRule | 'schema', pointer: string, message: string, type?: string) => {
    this.issues.push(streamIssue(this.at, rule, pointer, message, type));
  };

  push(item: unknown, at: ItemPosition): StreamIssue[] {
    const issues: StreamIssue[] = [];
    this.issues = issues;
    this.at = at;
    const add = this.add;

    if (this.outcome !== 'open') {
      add('after-terminal', '', `an event arrived after the stream ended (${this.outcome})`);
      return issues;
    }
    const typeName = this.classify(item);
    if (typeName === undefined) {
      // Without its kind an event cannot be checked as anything; one clear error beats every branch's complaints.
      add(
        'schema',
        '/object',
        'is required but missing: every event says whether it is a response, message or content',
        'StreamEvent',
      );
      this.events++;
      return issues;
    }
    const validate = this.validators[typeName];
    if (validate && !validate(item)) {
      for (const i of describeErrors(validate.errors)) add('schema', i.pointer, i.message, typeName);
      this.events++;
      return issues;
    }
    this.events++;
    // Every type an event is checked as is an object, so one that passed is one.
    if (!isObjectLike(item)) return issues;
    const event = item;
    if (typeName === 'ErrorFrame') {
      this.outcome = 'error-frame';
      return issues;
    }
    this.checkSequence(event, add);
    if (this.events === 1 && !(event.object === 'response' && (event.status ?? 'created') === 'created'))
      add('first-created', '', 'the first event must be a response with status "created"');
    if (event.object === 'response') this.onResponse(event, add);
    else if (event.object === 'message') this.onMessage(event, add);
    else if (event.object === 'content') this.onContent(event, add);
    return issues;
  }

  end(): StreamIssue[] {
    if (this.outcome !== 'open') return [];
    return [
      {
        index: this.events,
        pointer: '',
        rule: 'one-terminal',
        message:
          this.events === 0
            ? 'the stream is empty: it never opened a response'
            : 'the stream ended without a terminal response (completed, failed, canceled, rejected or incomplete)',
      },
    ];
  }

  /**
   * The schema type an item is checked as: by its `object`, or an ErrorFrame (where the version has error frames)
   * for a bare `{"error": …}`;
   * undefined for an object that does not say what it is. Anything else is checked as a StreamEvent.
   */
  private classify(item: unknown): string | undefined {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      if (!('object' in item)) return this.traits.errorFrames && 'error' in item ? 'ErrorFrame' : undefined;
      const object = item.object;
      if (object === 'response') return 'AgentResponse';
      if (object === 'message') return 'Message';
      if (object === 'content') return 'Content';
    }
    return 'StreamEvent';
  }

  private checkSequence(event: Json, add: (rule: StreamRule, pointer: string, message: string) => void) {
    if (!this.traits.integerSequence) return;
    const n = event.sequence_number;
    if (typeof n !== 'number') {
      add('sequence-number', '/sequence_number', `must be present: ${this.version} numbers every event`);
      return;
    }
    if (this.lastSequence !== undefined && n <= this.lastSequence)
      add(
        'sequence-number',
        '/sequence_number',
        `must be greater than ${this.lastSequence}, the previous event's`,
      );
    this.lastSequence = n;
  }

  private onResponse(event: Json, add: (rule: StreamRule, pointer: string, message: string) => void) {
    const id = typeof event.id === 'string' ? event.id : undefined;
    if (this.responseId === undefined) this.responseId = id;
    else if (id !== undefined && id !== this.responseId)
      add('one-response', '/id', `must be "${this.responseId}", the id the stream opened with`);
    const status = String(event.status ?? 'created');
    if (!isTerminal(status)) return;
    if (status === 'completed') {
      for (const id of this.openMessages)
        add('message-completes-first', '', `the response completed while message "${id}" was still open`);
      for (const key of this.openParts.keys())
        add(
          'message-completes-first',
          '',
          `the response completed while content part ${partLabel(key)} was still open`,
        );
    }
    this.outcome = status;
  }

  private onMessage(event: Json, add: (rule: StreamRule, pointer: string, message: string) => void) {
    const id = typeof event.id === 'string' ? event.id : undefined;
    if (id === undefined) return;
    if (this.recentlyCompleted.has(id)) {
      add('message-open', '/id', `message "${id}" already completed`);
      return;
    }
    if (event.status === 'completed' || event.status === 'failed' || event.status === 'incomplete') {
      this.openMessages.delete(id);
      this.remember(id);
      for (const key of [...this.openParts.keys()].filter((k) => k.startsWith(`${id}\u0000`))) {
        if (event.status === 'completed')
          add(
            'message-completes-first',
            '',
            `message "${id}" completed while its content part ${partLabel(key)} was still open`,
          );
        this.openParts.delete(key);
      }
      for (const key of [...this.completedParts].filter((k) => k.startsWith(`${id}\u0000`)))
        this.completedParts.delete(key);
    } else {
      this.openMessages.add(id);
    }
  }

  private onContent(event: Json, add: (rule: StreamRule, pointer: string, message: string) => void) {
    const msgId = typeof event.msg_id === 'string' ? event.msg_id : undefined;
    if (msgId === undefined) {
      add('message-announced', '/msg_id', 'must name the message this part belongs to');
      return;
    }
    if (!this.openMessages.has(msgId)) {
      add(
        'message-announced',
        '/msg_id',
        this.recentlyCompleted.has(msgId)
          ? `names message "${msgId}", which already completed`
          : `names message "${msgId}", which the stream never announced`,
      );
      return;
    }
    const key = `${msgId}\u0000${typeof event.index === 'number' ? event.index : 0}`;
    const type = String(event.type);
    const field = TEXT_FIELD[type];
    const value = field ? event[field] : undefined;
    const text = typeof value === 'string' ? value : undefined;
    if (this.completedParts.has(key)) {
      add('content-open', '', `content part ${partLabel(key)} already completed`);
      return;
    }
    if (event.delta === true) {
      const part = this.openParts.get(key) ?? {
        type,
        text: field !== undefined,
        pieces: [],
        length: 0,
        hash: undefined,
        deltas: 0,
      };
      if (part.text && text !== undefined) {
        if (part.hash) part.hash.update(text);
        else {
          part.pieces.push(text);
          part.length += text.length;
          if (part.length > DELTA_TEXT_KEPT) {
            // Too long to keep: what was kept goes into the hash, and so does every later delta.
            const hash = createHash('sha256');
            for (const piece of part.pieces) hash.update(piece);
            part.hash = hash;
            part.pieces = [];
          }
        }
      }
      part.deltas++;
      this.openParts.set(key, part);
      return;
    }
    if (event.status !== 'completed') return;
    const part = this.openParts.get(key);
    this.openParts.delete(key);
    this.completedParts.add(key);
    if (part?.text && part.deltas > 0) {
      const whole = text ?? '';
      const same = part.hash
        ? part.hash.digest('hex') === createHash('sha256').update(whole).digest('hex')
        : part.length === whole.length && part.pieces.join('') === whole;
      if (!same)
        add(
          'delta-concat',
          `/${field}`,
          `must equal the concatenation of the ${part.deltas} deltas streamed before it`,
        );
    }
  }

  private remember(id: string) {
    this.recentlyCompleted.add(id);
    if (this.recentlyCompleted.size > RECENT_LIMIT) {
      const oldest = this.recentlyCompleted.values().next().value;
      if (oldest !== undefined) this.recentlyCompleted.delete(oldest);
    }
  }
}

function partLabel(key: string): string {
  const [msgId, index] = key.split('\u0000');
  return `${index} of message "${msgId}"`;
}

/** Checks a whole stream of parsed events (for tests and small captures); the CLI feeds the check as it reads. */
export function checkStream(version: AgentScopeVersion, events: Iterable<unknown>): StreamIssue[] {
  const check = new AgentScopeStreamCheck(version);
  const issues: StreamIssue[] = [];
  let index = 0;
  for (const e of events) issues.push(...check.push(e, { index: ++index }));
  issues.push(...check.end());
  return issues;
}
