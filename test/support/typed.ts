// Typed helpers for tests, in place of casts (issue 36): read what an answer, a thrown error or a stream holds as
// `unknown` and narrow it with a check that fails the test when the value is not what it should be, and send a typed
// API a deliberately wrong value through one documented cast instead of many scattered ones.

/**
 * A value given to a typed API that its type forbids, on purpose: the test proves the code refuses it (or copes with
 * it) at run time. Returns the value unchanged; only the compiler's view of it changes.
 */
export function illTyped(value: unknown): never {
  // sound: deliberately ill-typed: every caller passes a value its API's type forbids, to prove what the code does
  // with it at run time, and nothing here reads the value as what the type says.
  return value as never;
}

/** Whether a value is a non-null object other than an array, whose properties may then be read as unknown. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object whose properties are read as unknown; throws (failing the test) when it is none. */
export function record(value: unknown, what = 'the value'): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${what} is not an object: ${JSON.stringify(value)}`);
  return value;
}

/** The value as an array of unknown items; throws (failing the test) when it is none. */
export function list(value: unknown, what = 'the value'): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array: ${JSON.stringify(value)}`);
  return value;
}

/** The named property of a value, or undefined when the value is no object or lacks it. */
export function prop(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** The named string property of an object; throws (failing the test) when it is missing or not a string. */
export function stringAt(value: unknown, key: string): string {
  const found = prop(value, key);
  if (typeof found !== 'string') throw new Error(`no string "${key}" in ${JSON.stringify(value)}`);
  return found;
}

/** The named number property of an object; throws (failing the test) when it is missing or not a number. */
export function numberAt(value: unknown, key: string): number {
  const found = prop(value, key);
  if (typeof found !== 'number') throw new Error(`no number "${key}" in ${JSON.stringify(value)}`);
  return found;
}

/** The item at an index of a list; throws (failing the test) when the list is shorter. */
export function at<T>(items: readonly T[], index: number): T {
  // Boxed, so that an item that is itself undefined is told apart from no item (map skips holes).
  const found = index >= 0 ? items.slice(index, index + 1).map((item) => ({ item }))[0] : undefined;
  if (!found) throw new Error(`no item ${index} in a list of ${items.length}`);
  return found.item;
}

/** The value once a type guard (a generated validator, say) has passed it; throws (failing the test) otherwise. */
export function checked<T>(value: unknown, guard: (value: unknown) => value is T, what = 'the value'): T {
  if (!guard(value)) throw new Error(`${what} does not pass its check: ${JSON.stringify(value)}`);
  return value;
}

/** What a thrown value says: an Error's message, or the value as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A response's body stream; throws (failing the test) when the response has none. */
export function bodyOf(response: Response): ReadableStream<Uint8Array> {
  if (response.body === null) throw new Error(`the ${response.status} response has no body`);
  return response.body;
}

/** The chunks of a response body, for readers that take an async iterable (which the DOM types do not call a body). */
export async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    // A reader that stops early cancels the body, as iterating the stream itself would.
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** What a failed child process (execFileSync, spawnSync) left on its error: exit status, output as text, message. */
export function execFailure(error: unknown): {
  status: number | undefined;
  stdout: string;
  stderr: string;
  message: string;
} {
  const status = prop(error, 'status');
  const text = (key: string) => {
    const value = prop(error, key);
    return value === undefined || value === null ? '' : String(value);
  };
  return {
    status: typeof status === 'number' ? status : undefined,
    stdout: text('stdout'),
    stderr: text('stderr'),
    message: messageOf(error),
  };
}

/** The TCP port a listening server is bound to; throws when it listens on a pipe or not at all. */
export function portOf(server: { address(): { port: number } | string | null }): number {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error(`not listening on a TCP port: ${address}`);
  return address.port;
}
