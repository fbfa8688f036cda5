// Input formats of `agentproto validate`: how each input is framed (one JSON or YAML document, NDJSON or SSE), from
// its file extension or, when the name does not say, from its first bytes.
import { isSessionHeader } from '../inspect/session.js';

/**
 * How an input is read: one JSON (or YAML) document, a stream of items, a saved session, or a JSON-RPC transcript
 * (newline-delimited messages in both directions, as on a stdio transport). `auto` decides per file: by the extension,
 * else by the first bytes; and an NDJSON input whose first line is a JSON-RPC request or notification (or a batch
 * opening with one) is a transcript when no `--type` is given (see opensJsonRpcExchange).
 */
export type InputFormat = 'auto' | 'json' | 'yaml' | 'ndjson' | 'sse' | 'session' | 'jsonrpc';

/** The values --format takes. */
export const FORMATS: readonly InputFormat[] = [
  'auto',
  'json',
  'yaml',
  'ndjson',
  'sse',
  'session',
  'jsonrpc',
];

/** The end of a file name that marks a session the inspector saved. */
export const SESSION_SUFFIX = '.session.ndjson';
/** The format each known file extension means; a folder is walked for these extensions. */
export const BY_EXTENSION: Readonly<Record<string, Exclude<InputFormat, 'auto'>>> = {
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.sse': 'sse',
};

/** Reads the first chunk, and gives back a stream that still starts with it. */
export async function peek(chunks: AsyncIterable<string | Uint8Array>) {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done
    ? ''
    : typeof first.value === 'string'
      ? first.value
      : new TextDecoder().decode(first.value);
  async function* rest(): AsyncGenerator<string | Uint8Array> {
    if (!first.done) yield first.value;
    while (true) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, chunks: rest() };
}

/**
 * The format of an input whose name does not say: SSE when it opens with an SSE field or comment; NDJSON when its
 * first line is a whole JSON value and more lines follow; else one JSON document.
 */
export function sniff(head: string): Exclude<InputFormat, 'auto'> {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (/^(data|event|id|retry):|^:/.test(text)) return 'sse';
  const newline = text.indexOf('\n');
  if (newline > 0 && text.slice(newline + 1).trim() !== '') {
    try {
      return isSessionHeader(JSON.parse(text.slice(0, newline))) ? 'session' : 'ndjson';
    } catch {
      // The first line is only part of a document.
    }
  }
  return 'json';
}

/** A whole input as text (documents are read whole; streams never are). */
export async function collect(chunks: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const c of chunks) text += typeof c === 'string' ? c : decoder.decode(c, { stream: true });
  return text + decoder.decode();
}

/**
 * Whether the first line of an NDJSON input is a JSON-RPC 2.0 request or notification (or a batch whose first member
 * is one): the input is then an exchange of messages, read as a transcript, whose results are checked against the
 * methods that asked for them. A stream that opens with a response (a captured answer, one envelope per line) stays a
 * stream of items.
 */
export function opensJsonRpcExchange(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  const newline = text.indexOf('\n');
  let first: unknown;
  try {
    first = JSON.parse(newline < 0 ? text : text.slice(0, newline));
  } catch {
    return false;
  }
  const message = Array.isArray(first) ? first[0] : first;
  return (
    typeof message === 'object' &&
    message !== null &&
    !Array.isArray(message) &&
    Reflect.get(message, 'jsonrpc') === '2.0' &&
    typeof Reflect.get(message, 'method') === 'string'
  );
}
