// A handler set written for one version, answering another through a translator: each method (or HTTP operation) of
// the `from` version calls the `to` handler its table names, with the request translated up and the answer (each
// event, for a stream) translated down. Errors go through `mapError`, so a caller can restate them in the `from`
// version's form; nothing here knows a protocol.
import type { Translator } from './translate.js';

/** A handler of either version: a request, and whatever context the binding passes beside it. */
export type TranslatedHandler = (request: never, context: never) => unknown;

/** Options of the wrappers. */
export interface TranslateHandlersOptions {
  /** Restates an error a `to` handler threw (before or during a stream) as the `from` version says it; identity by default. */
  mapError?: (error: unknown) => unknown;
  /**
   * Checks a request translated up against the `to` type it became (throw to refuse it). A request valid in the
   * `from` version may still break the `to` version's rules (an empty list one side allows), and the handlers are
   * written for the `to` version's; without this check it reaches them anyway.
   */
  checkUp?: (type: string, value: unknown) => void;
}

/** The `to` type a `from` type's rule makes. */
const targetOf = (translator: Translator, type: string) => translator.table.types[type]?.to ?? type;

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

/**
 * The events of a stream, each translated down as it is read; an error of the stream (or of a translation) is mapped
 * and ends it. A plain iterator rather than an async generator: every event costs one promise reaction here, not a
 * generator's suspension and resumption, and the stream of a translated version keeps the pace of its own version's.
 * Closing it closes the stream it reads (as `for await` would).
 */
function mapStream(
  events: AsyncIterable<unknown>,
  down: (v: unknown) => unknown,
  mapError: (e: unknown) => unknown,
): AsyncIterableIterator<unknown> {
  let source: AsyncIterator<unknown> | undefined;
  let done = false;
  const end = (): IteratorResult<unknown> => {
    done = true;
    return { done: true, value: undefined };
  };
  const failed = (error: unknown): never => {
    done = true;
    throw mapError(error);
  };
  const translated = (result: IteratorResult<unknown>): IteratorResult<unknown> | Promise<never> => {
    if (result.done) return end();
    try {
      return { done: false, value: down(result.value) };
    } catch (error) {
      // A translation that throws ends the stream as a throw in a `for await` body would: the source is closed first.
      done = true;
      return Promise.resolve(source?.return?.()).then(
        () => failed(error),
        () => failed(error),
      );
    }
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (done) return Promise.resolve(end());
      try {
        source ??= events[Symbol.asyncIterator]();
        return source.next().then(translated, failed);
      } catch (error) {
        // A stream that cannot be read at all rejects the call, as a generator's first step would.
        done = true;
        return Promise.resolve(error).then(failed);
      }
    },
    async return(value?: unknown) {
      if (!done) {
        done = true;
        await source?.return?.();
      }
      return { done: true, value };
    },
  };
}

/** Translates one answer (or stream of answers) down; a call's error is mapped. */
async function answer(
  call: () => unknown,
  down: (v: unknown) => unknown,
  mapError: (e: unknown) => unknown,
): Promise<unknown> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    throw mapError(error);
  }
  return isAsyncIterable(result) ? mapStream(result, down, mapError) : down(result);
}

const same = (v: unknown) => v;

/**
 * The JSON-RPC handlers of the `from` version, by method name, each calling the `to` handler the table names. A
 * method whose `to` handler is missing is left out (the `from` app answers it as an unknown method).
 */
export function translateRpcHandlers<H extends TranslatedHandler>(
  translator: Translator,
  handlers: Readonly<Record<string, H>>,
  options: TranslateHandlersOptions = {},
): Record<string, TranslatedHandler> {
  const mapError = options.mapError ?? same;
  const out: Record<string, TranslatedHandler> = {};
  for (const [method, rule] of Object.entries(translator.table.methods)) {
    // sound: `never` in TranslatedHandler only hides each handler's own types. The request is what the table's codec
    // makes of a `from` request its binding validated, the `to` type this handler takes (checkUp checks it when
    // given), and the context is the one the binding passes every handler.
    const handler = handlers[rule.to] as ((request: unknown, context: unknown) => unknown) | undefined;
    if (!handler) continue;
    const codec = rule.params === undefined ? undefined : translator.codec(rule.params);
    const target = rule.params === undefined ? undefined : targetOf(translator, rule.params);
    const check = options.checkUp;
    const up =
      codec === undefined
        ? same
        : (params: unknown) => {
            const request = codec.up(params);
            if (check && target !== undefined) check(target, request);
            return request;
          };
    const down =
      rule.answer !== undefined
        ? () => rule.answer
        : rule.result === undefined
          ? same
          : translator.codec(rule.result).down;
    out[method] = (params: unknown, context: unknown) =>
      answer(() => handler(up(params), context), down, mapError);
  }
  return out;
}

/** What an HTTP operation of the `from` version gets: its path and query parameters and its body. */
export interface TranslatedInput {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
}

/**
 * The HTTP operations of the `from` version, by operationId: each builds the `to` request from its parameters
 * (renamed as the table says; unnamed ones dropped) and its translated body, calls `call(to, request, input)` and
 * translates the answer down.
 */
export function translateOperations<I extends TranslatedInput>(
  translator: Translator,
  call: (operation: string, request: Record<string, unknown>, input: I) => unknown,
  options: TranslateHandlersOptions = {},
): Record<string, (input: I) => Promise<unknown>> {
  const mapError = options.mapError ?? same;
  const out: Record<string, (input: I) => Promise<unknown>> = {};
  for (const [operation, rule] of Object.entries(translator.table.operations)) {
    const codec = rule.body === undefined ? undefined : translator.codec(rule.body);
    const target = rule.body === undefined ? undefined : targetOf(translator, rule.body);
    const down = rule.result === undefined ? same : translator.codec(rule.result).down;
    const names = Object.entries(rule.params ?? {});
    out[operation] = (input: I) =>
      answer(
        () => {
          const body = codec ? codec.up(input.body) : undefined;
          const request: Record<string, unknown> =
            typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
          for (const [from, to] of names) {
            const value = input.params[from] ?? input.query[from];
            if (value !== undefined) request[to] = value;
          }
          if (options.checkUp && target !== undefined) options.checkUp(target, request);
          return call(rule.to, request, input);
        },
        down,
        mapError,
      );
  }
  return out;
}

/** What a client of the `from` version calls: one method, and one that streams. */
export interface TranslatedCaller {
  call(method: string, params: unknown, options?: unknown): Promise<unknown>;
  stream(method: string, params: unknown, framing: 'sse', options?: unknown): AsyncIterable<unknown>;
}

/**
 * A client written against the `to` version for a peer that speaks the `from` one: each `to` method the table maps
 * sends its `from` method with the params translated down, and gives back the answer (each streamed event) translated
 * up. `streams` names the `to` methods that answer with a stream. The inverse of translateRpcHandlers.
 */
export function translateClient(
  translator: Translator,
  caller: TranslatedCaller,
  streams: ReadonlySet<string>,
): Record<string, (params?: unknown, options?: unknown) => unknown> {
  const out: Record<string, (params?: unknown, options?: unknown) => unknown> = {};
  for (const [method, rule] of Object.entries(translator.table.methods)) {
    if (out[rule.to]) continue;
    const down = rule.params === undefined ? same : translator.codec(rule.params).down;
    const up = rule.result === undefined ? same : translator.codec(rule.result).up;
    out[rule.to] = streams.has(rule.to)
      ? (params = {}, options) =>
          (async function* () {
            for await (const event of caller.stream(method, down(params), 'sse', options)) yield up(event);
          })()
      : async (params = {}, options) => up(await caller.call(method, down(params), options));
  }
  return out;
}
