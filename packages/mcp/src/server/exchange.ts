// One request's link between the transport and the handlers: who the client is (its capabilities, the log level it
// asked for) and how to reach it before the answer is done (notifications and requests on the answer's stream). The
// transport attaches an exchange to the Request it hands a revision's JSON-RPC app; a handler finds it there.
import { JsonRpcError, RPC_ERROR_CODES } from '@agentproto/runtime';
import { isObjectLike } from '../is-object-like.js';
import type { LoggingLevel } from './definition.js';

/** What the transport tells the handlers of one request. */
export interface Exchange {
  /** What the client declared it can do. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The least severe log level the client wants to hear; undefined when it asked for none. */
  readonly logLevel: LoggingLevel | undefined;
  /** Remembers the level `logging/setLevel` asked for, for the rest of the session. */
  setLogLevel(level: LoggingLevel): void;
  /** Sends a notification on the answer's stream (turning the answer into a stream). */
  notify(method: string, params: unknown): void;
  /** Sends a request on the answer's stream and resolves with the client's reply, which arrives in a POST of its own. */
  request(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
}

const EXCHANGES = new WeakMap<Request, Exchange>();

/** Ties an exchange to the request a JSON-RPC app is handed. */
export function attachExchange(request: Request, exchange: Exchange): void {
  EXCHANGES.set(request, exchange);
}

/** The exchange of a request, or one that reaches nobody (a handler called without the transport). */
export function exchangeOf(request: Request | undefined): Exchange {
  return (request && EXCHANGES.get(request)) ?? DETACHED;
}

const DETACHED: Exchange = {
  clientCapabilities: {},
  logLevel: undefined,
  setLogLevel() {},
  notify() {},
  request(method) {
    return Promise.reject(
      new JsonRpcError(RPC_ERROR_CODES.internalError, `No client to send ${method} to on this transport`),
    );
  },
};

/** The levels in order, least severe first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** Whether a message at `level` is wanted by a client that asked for `wanted` (or for nothing). */
export function isWanted(level: LoggingLevel, wanted: LoggingLevel | undefined): boolean {
  return wanted !== undefined && LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(wanted);
}

/** How many events an answer's stream holds for a client that does not read them, before notifications are dropped. */
export const MAX_UNREAD_EVENTS = 1024;

/**
 * The messages sent before a request's answer, and then the answer: nothing at all when the handler sent none (the
 * answer stays JSON), else an SSE stream that ends with the answer. A client that stops reading loses notifications
 * past MAX_UNREAD_EVENTS; requests and the answer are never dropped.
 */
export class AnswerStream {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #readable: ReadableStream<Uint8Array> | undefined;
  #closed = false;
  #started = false;
  readonly #onOpen: (() => void) | undefined;

  /** `onOpen` is told when the first message is sent: from then on, the answer is this stream. */
  constructor(onOpen?: () => void) {
    this.#onOpen = onOpen;
  }

  /** The stream itself, made on first use (most answers never need one). */
  get readable(): ReadableStream<Uint8Array> {
    this.#readable ??= new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#closed = true;
      },
    });
    return this.#readable;
  }

  /** Whether any message was sent. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Sends one message as an SSE event; a notification is dropped when the client is too far behind. Whether the
   * message went out (false once the stream is closed, or the client stopped reading it).
   */
  send(message: unknown, droppable = false): boolean {
    void this.readable;
    if (this.#closed || !this.#controller) return false;
    if (droppable && (this.#controller.desiredSize ?? 0) <= -MAX_UNREAD_EVENTS) return false;
    this.#controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(message)}\n\n`));
    if (!this.#started) {
      this.#started = true;
      this.#onOpen?.();
    }
    return true;
  }

  /** Sends the answer (its JSON text as it is) and ends the stream. */
  end(answer: string): void {
    void this.readable;
    if (this.#closed || !this.#controller) return;
    this.#controller.enqueue(new TextEncoder().encode(`data: ${answer}\n\n`));
    this.#controller.close();
    this.#closed = true;
  }
}

/** How many of the server's requests may wait for a reply at once, and how long each waits. */
export interface ReplyLimits {
  /** Most requests waiting for a reply, across sessions (default 1,024); one more is refused. */
  maxPending: number;
  /** How long a request waits for the client's reply (default 60 s). */
  timeoutMs: number;
}

/** The reply bounds a server has unless its options say otherwise. */
export const DEFAULT_REPLY_LIMITS: ReplyLimits = { maxPending: 1024, timeoutMs: 60_000 };

/** A client's reply to one of the server's requests: its result, or its error. */
export interface Reply {
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

/**
 * The server's requests waiting for the client's reply, each by its session and id. A reply that matches none (late,
 * unknown, from another session) is ignored.
 */
export class ReplyRouter {
  readonly #waiting = new Map<string, (reply: Reply) => void>();
  #next = 0;
  constructor(private readonly limits: ReplyLimits = DEFAULT_REPLY_LIMITS) {}

  /**
   * Registers a request of the session and resolves with the client's result; rejects on its error, on the bounds,
   * when the request is abandoned, or when `send` could not send it.
   */
  wait(session: string, signal: AbortSignal, send: (id: string) => boolean): Promise<unknown> {
    if (signal.aborted) return Promise.reject(new Error('The request was abandoned'));
    if (this.#waiting.size >= this.limits.maxPending)
      return Promise.reject(
        new JsonRpcError(
          RPC_ERROR_CODES.internalError,
          `Too many requests to clients waiting for a reply (${this.limits.maxPending})`,
        ),
      );
    this.#next += 1;
    const id = `server-${this.#next}`;
    const key = `${session}\n${id}`;
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.#waiting.delete(key);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`The client did not reply within ${this.limits.timeoutMs / 1000} s`));
      }, this.limits.timeoutMs);
      // A request waiting for its reply does not keep the process alive on its own.
      timer.unref?.();
      const aborted = () => {
        done();
        reject(new Error('The request was abandoned'));
      };
      signal.addEventListener('abort', aborted, { once: true });
      this.#waiting.set(key, (reply) => {
        done();
        if (reply.error === undefined) return resolve(reply.result);
        const error = isObjectLike(reply.error) ? reply.error : {};
        // The client's refusal fails the work that asked, as any other failure would: its code is the client's,
        // not an answer to the request the server is working on.
        reject(
          new Error(
            `The client refused (${String(error.code ?? 'no code')}): ${String(error.message ?? 'no message')}`,
          ),
        );
      });
      if (!send(id)) {
        done();
        reject(new Error('The client no longer reads this answer'));
      }
    });
  }

  /** Hands a reply to the request it answers; whether one was waiting. */
  settle(session: string, reply: Reply): boolean {
    const waiting = typeof reply.id === 'string' ? this.#waiting.get(`${session}\n${reply.id}`) : undefined;
    waiting?.(reply);
    return waiting !== undefined;
  }

  get size(): number {
    return this.#waiting.size;
  }
}
