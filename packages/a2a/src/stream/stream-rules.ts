// A2A's stream rules (specification §3.1.2, §3.1.6, §11.7): what JSON Schema cannot say about a stream of
// StreamResponse events, because it spans several. Streams of either binding are read: HTTP+JSON sends each
// StreamResponse as it is, JSON-RPC wraps each in a response (`{"jsonrpc":"2.0","id":…,"result":…}`), and may end
// with an error response.
import {
  describeErrors,
  type ItemPosition,
  type StreamCheck,
  type StreamIssue,
  streamIssue,
  type Validator,
} from '@agentproto/runtime/contract';
import { INTERRUPTED_STATES, TERMINAL_STATES } from '../agent/agent.js';
import type { Schemas } from '../generated/versions.js';
import { LATEST, TRAITS, type Version } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import { TRANSLATED, validatorOf } from '../version-data.js';

type TaskState = Schemas[typeof LATEST]['TaskState'];

/** The ordering rules of an A2A stream, by id. */
export const STREAM_RULES = {
  'first-is-task-or-message': 'a stream starts with a Task or a Message',
  'message-alone': 'a stream that starts with a Message holds nothing else',
  'one-task': "every update names the stream's task and its context",
  'closes-at-final': 'after a terminal or interrupted state, only a last Task snapshot may follow',
  'append-known-artifact': 'an artifact chunk with append adds to an artifact the stream has already sent',
  'ends-at-final': 'a task stream ends once its task is terminal or interrupted',
  'one-envelope-id': 'every JSON-RPC response of a stream carries the id of the request',
} as const;

/** The id of a stream rule. */
export type StreamRule = keyof typeof STREAM_RULES;

interface Variant {
  task?: {
    id: string;
    contextId?: string;
    status: { state: TaskState };
    artifacts?: Array<{ artifactId: string }>;
  };
  message?: unknown;
  statusUpdate?: { taskId: string; contextId: string; status: { state: TaskState } };
  artifactUpdate?: { taskId: string; contextId: string; artifact: { artifactId: string }; append?: boolean };
}

/** Checks one A2A stream, an event at a time, in bounded memory (the artifact ids it has seen). */
export class A2aStreamCheck implements StreamCheck {
  // The version's own schemas read each event, by the type names its traits give; a version served through a
  // translation has its events translated to 1.0 before the rules read them.
  readonly #rpcEvent: Validator;
  readonly #restEvent: Validator;
  readonly #names: { rpc: string; rest: string; success: string; error: string };
  readonly #success: Validator;
  readonly #error: Validator;
  readonly #up: { rpc: (v: unknown) => unknown; rest: (v: unknown) => unknown };
  #count = 0;
  #kind: 'task' | 'message' | undefined;
  #task: { id: string; contextId: string | undefined } | undefined;
  #state: TaskState | undefined;
  #closed = false;
  #snapshotAfterClose = false;
  #errored = false;
  #envelopeId: unknown;
  readonly #artifacts = new Set<string>();

  /** A check of one stream of `version` (the latest when omitted). */
  constructor(version: Version = LATEST) {
    const t = TRAITS[version];
    this.#names = {
      rpc: t.rpcStreamEvent,
      rest: t.restStreamEvent,
      success: t.rpcSuccess,
      error: t.rpcError,
    };
    this.#rpcEvent = validatorOf(version, t.rpcStreamEvent);
    this.#restEvent = validatorOf(version, t.restStreamEvent);
    this.#success = validatorOf(version, t.rpcSuccess);
    this.#error = validatorOf(version, t.rpcError);
    const translation = TRANSLATED[version];
    this.#up = translation
      ? {
          rpc: translation.translator.codec(t.rpcStreamEvent).up,
          rest: translation.translator.codec(t.restStreamEvent).up,
        }
      : { rpc: (v) => v, rest: (v) => v };
  }

  push(item: unknown, at: ItemPosition): StreamIssue[] {
    const issues: StreamIssue[] = [];
    const add = (rule: StreamRule | 'schema', pointer: string, message: string, type?: string) =>
      issues.push(streamIssue(at, rule, pointer, message, type));
    this.#count++;
    let event = item;
    let base = '';
    if (isObjectLike(item) && 'jsonrpc' in item) {
      const envelope = item;
      // The first response's id is the stream's even when that response breaks its schema: the others are held to it.
      if (this.#count === 1) this.#envelopeId = envelope.id;
      const type = 'error' in envelope ? this.#names.error : this.#names.success;
      const validate = 'error' in envelope ? this.#error : this.#success;
      if (!validate(item)) {
        for (const i of describeErrors(validate.errors)) add('schema', i.pointer, i.message, type);
        return issues;
      }
      if (this.#count > 1 && envelope.id !== this.#envelopeId)
        add(
          'one-envelope-id',
          '/id',
          `must be ${JSON.stringify(this.#envelopeId)}, the id of the stream's first response`,
        );
      if ('error' in envelope) {
        this.#errored = true;
        return issues;
      }
      event = envelope.result;
      base = '/result';
    }
    const [validate, name, up] =
      base === ''
        ? [this.#restEvent, this.#names.rest, this.#up.rest]
        : [this.#rpcEvent, this.#names.rpc, this.#up.rpc];
    if (!validate(event)) {
      for (const i of describeErrors(validate.errors)) add('schema', base + i.pointer, i.message, name);
      return issues;
    }
    // sound: the event passed this version's stream event schema, and `up` is the identity or the generated codec to
    // the 1.0 StreamResponse it maps to; Variant reads StreamResponse's four members as optional.
    const e = up(event) as Variant;
    if (this.#count === 1) {
      if (e.task) {
        this.#kind = 'task';
        this.#task = { id: e.task.id, contextId: e.task.contextId };
        this.#state = e.task.status.state;
        // A task already terminal may be the whole stream; an interrupted one (input required) opens the stream of
        // the message that continues it, so the stream goes on.
        if (TERMINAL_STATES.has(this.#state)) this.#closed = true;
        for (const a of e.task.artifacts ?? []) this.#artifacts.add(a.artifactId);
      } else if (e.message) this.#kind = 'message';
      else add('first-is-task-or-message', base, 'the first event must be a task or a message');
      return issues;
    }
    if (this.#kind === 'message') {
      add('message-alone', base, 'a stream that answered with a message must end after it');
      return issues;
    }
    if (this.#closed) {
      if (e.task && !this.#snapshotAfterClose) this.#snapshotAfterClose = true;
      else add('closes-at-final', base, `the task was already ${this.#state}: the stream must close`);
      return issues;
    }
    const update = e.statusUpdate ?? e.artifactUpdate;
    if (update && this.#task) {
      if (update.taskId !== this.#task.id)
        add(
          'one-task',
          `${base}/${e.statusUpdate ? 'statusUpdate' : 'artifactUpdate'}/taskId`,
          `must be "${this.#task.id}", the stream's task`,
        );
      if (this.#task.contextId !== undefined && update.contextId !== this.#task.contextId)
        add(
          'one-task',
          `${base}/${e.statusUpdate ? 'statusUpdate' : 'artifactUpdate'}/contextId`,
          `must be "${this.#task.contextId}", the task's context`,
        );
    }
    if (e.artifactUpdate) {
      const id = e.artifactUpdate.artifact.artifactId;
      if (e.artifactUpdate.append && !this.#artifacts.has(id))
        add(
          'append-known-artifact',
          `${base}/artifactUpdate/append`,
          `no artifact "${id}" was sent before this chunk`,
        );
      if (this.#artifacts.size < 10_000) this.#artifacts.add(id);
    }
    const state = e.statusUpdate?.status.state ?? e.task?.status.state;
    if (state) {
      this.#state = state;
      if (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state)) this.#closed = true;
    }
    return issues;
  }

  end(): StreamIssue[] {
    if (this.#kind !== 'task' || this.#closed || this.#errored) return [];
    return [
      {
        index: this.#count,
        pointer: '',
        message: `the stream ended while its task was ${this.#state}`,
        rule: 'ends-at-final',
      },
    ];
  }
}
