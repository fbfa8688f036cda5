// Turns what an agent yields (text deltas, data, function calls and their outputs, errors) into the event sequence the
// AgentScope protocol requires: response, messages and content parts, with their statuses in order.
import { randomUUID } from 'node:crypto';
import { type AgentScopeVersion, VERSION_TRAITS } from '../version-traits.js';

/**
 * What an agent yields: high-level output that the runtime turns into a compliant event sequence. Consecutive text
 * deltas form one assistant message; every other output is a message of its own.
 */
export type AgentOutput =
  /** A piece of the assistant's answer. */
  | { type: 'text'; delta: string }
  /** Structured data, sent as an assistant message with one data part. */
  | { type: 'data'; data: Record<string, unknown> }
  /** The model asking for a function to run (a `function_call` message). */
  | { type: 'function_call'; name: string; arguments: string | Record<string, unknown>; call_id?: string }
  /** What a function returned (a `function_call_output` message). */
  | { type: 'function_call_output'; call_id: string; output: string | unknown; name?: string }
  /** A failure the agent reports: the response ends `failed` with this error. */
  | { type: 'error'; code: string; message: string }
  /** An image, sent as an assistant message with one image part. */
  | { type: 'image'; image_url: string }
  /**
   * A whole message of several parts (text, image, data, audio, file…: each a content object of the version's
   * schemas, without `index`, `msg_id` or `status`), sent with its parts at index 0, 1, 2… in the order given.
   */
  | { type: 'message'; role?: 'assistant' | 'system' | 'tool'; parts: ReadonlyArray<Record<string, unknown>> }
  /** Token counts and costs for the whole response (the terminal response's `usage`); a later one replaces it. */
  | { type: 'usage'; usage: Record<string, unknown> }
  /**
   * Ends the response without completing it: `canceled` (the user stopped it) or `rejected` (the agent will not
   * answer it), with an optional error; nothing after it is read.
   */
  | { type: 'end'; status: 'canceled' | 'rejected'; error?: { code: string; message: string } };

/** Options of {@link responseStream}. */
export interface ResponseStreamOptions {
  version: AgentScopeVersion;
  /** The response id; one is made up (`response_` and a UUID) when absent. */
  id?: string;
  sessionId?: string;
  /** Called with an error the agent threw; the stream then ends with a failed response that does not leak it. */
  onError?: (error: unknown) => void;
  /** The clock, in Unix seconds (tests pin it). */
  now?: () => number;
}

type Event = Record<string, unknown>;

/**
 * Runs an agent's output through the AgentScope event grammar, as upstream's ResponseBuilder does: a response
 * `created` then `in_progress`; per message an `in_progress` message event, its content (text as deltas then one
 * completed part), and the message `completed`; finally the response `completed` with every message as output, or
 * `failed` with an error. Every event gets the next sequence number (an integer where the version's
 * `integerSequence` trait says so, as in 1.1; a decimal string otherwise, as in 0.1).
 */
export async function* responseStream(
  output: AsyncIterable<AgentOutput>,
  options: ResponseStreamOptions,
): AsyncGenerator<Event> {
  const traits = VERSION_TRAITS[options.version];
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  let sequence = 0;
  const stamp = (event: Event): Event => {
    const stamped = { sequence_number: traits.integerSequence ? sequence : String(sequence), ...event };
    sequence++;
    return stamped;
  };
  const completedMessages: Event[] = [];
  const response: Event = {
    object: 'response',
    status: 'created',
    error: null,
    id: options.id ?? `response_${randomUUID()}`,
    created_at: now(),
    completed_at: null,
    output: [],
    usage: null,
    session_id: options.sessionId ?? null,
  };
  const messageShell = (type: string, role: string): Event => ({
    object: 'message',
    status: 'in_progress',
    error: null,
    id: `msg_${randomUUID()}`,
    type,
    role,
    content: null,
    code: null,
    message: null,
    ...(traits.messageMetadata ? { usage: null, metadata: null } : {}),
  });
  const part = (message: Event, fields: Event): Event => ({
    object: 'content',
    status: 'completed',
    error: null,
    index: 0,
    delta: false,
    msg_id: message.id,
    ...fields,
  });

  // The text message being streamed, if any.
  let text: { message: Event; deltas: string[] } | undefined;
  function* closeText(): Generator<Event> {
    if (!text) return;
    const whole = part(text.message, { type: 'text', text: text.deltas.join('') });
    const completedPart = stamp(whole);
    yield completedPart;
    const done = stamp({ ...text.message, status: 'completed', content: [completedPart] });
    completedMessages.push(done);
    yield done;
    text = undefined;
  }
  function* wholeMessage(type: string, role: string, ...contents: Event[]): Generator<Event> {
    const shell = messageShell(type, role);
    yield stamp(shell);
    const parts: Event[] = [];
    for (const [index, content] of contents.entries()) {
      const completedPart = stamp(part(shell, { ...content, index }));
      parts.push(completedPart);
      yield completedPart;
    }
    const done = stamp({ ...shell, status: 'completed', content: parts });
    completedMessages.push(done);
    yield done;
  }

  yield stamp({ ...response });
  yield stamp({ ...response, status: 'in_progress' });
  let failure: { code: string; message: string } | undefined;
  let ended: { status: 'canceled' | 'rejected'; error: { code: string; message: string } | null } | undefined;
  try {
    for await (const out of output) {
      if (out.type === 'text') {
        if (!text) {
          text = { message: messageShell('message', 'assistant'), deltas: [] };
          yield stamp(text.message);
        }
        if (out.delta === '') continue;
        text.deltas.push(out.delta);
        // The hot path of every stream: one object per delta, its keys in the order stamp(part(…)) gives them.
        yield {
          sequence_number: traits.integerSequence ? sequence : String(sequence),
          object: 'content',
          status: 'in_progress',
          error: null,
          index: 0,
          delta: true,
          msg_id: text.message.id,
          type: 'text',
          text: out.delta,
        };
        sequence++;
        continue;
      }
      // Usage is the response's: it does not end the text message being streamed.
      if (out.type === 'usage') {
        response.usage = out.usage;
        continue;
      }
      yield* closeText();
      if (out.type === 'error') {
        failure = { code: out.code, message: out.message };
        break;
      }
      if (out.type === 'end') {
        ended = { status: out.status, error: out.error ?? null };
        break;
      }
      if (out.type === 'data') {
        yield* wholeMessage('message', 'assistant', { type: 'data', data: out.data });
      } else if (out.type === 'image') {
        yield* wholeMessage('message', 'assistant', { type: 'image', image_url: out.image_url });
      } else if (out.type === 'message') {
        const parts = out.parts.map(({ index: _i, msg_id: _m, status: _s, ...rest }) => rest);
        // Without a `tool` role (0.1), what a tool said is the assistant's, as for function outputs.
        const role = out.role === 'tool' && !traits.toolRole ? 'assistant' : (out.role ?? 'assistant');
        yield* wholeMessage('message', role, ...parts);
      } else if (out.type === 'function_call') {
        const args = typeof out.arguments === 'string' ? out.arguments : JSON.stringify(out.arguments);
        const call = { call_id: out.call_id ?? `call_${randomUUID()}`, name: out.name, arguments: args };
        yield* wholeMessage('function_call', 'assistant', { type: 'data', data: call });
      } else {
        const result = typeof out.output === 'string' ? out.output : JSON.stringify(out.output);
        const data = {
          call_id: out.call_id,
          output: result,
          ...(traits.functionOutputName && out.name ? { name: out.name } : {}),
        };
        // What a tool said is the `tool` role's where the version has one (1.x); 0.1 knows only assistant, user
        // and system.
        yield* wholeMessage('function_call_output', traits.toolRole ? 'tool' : 'assistant', {
          type: 'data',
          data,
        });
      }
    }
    if (!failure && !ended) yield* closeText();
  } catch (error) {
    options.onError?.(error);
    // What the agent threw stays on the server: it may hold internals.
    failure = { code: 'AGENT_UNKNOWN_ERROR', message: 'the agent failed while answering' };
  }
  if (failure) {
    yield stamp({ ...response, status: 'failed', error: failure, output: completedMessages });
    return;
  }
  if (ended) {
    yield stamp({ ...response, status: ended.status, error: ended.error, output: completedMessages });
    return;
  }
  yield stamp({ ...response, status: 'completed', completed_at: now(), output: completedMessages });
}
