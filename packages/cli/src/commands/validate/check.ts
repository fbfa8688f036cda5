// Checking one input: a JSON or YAML document against its type (with the protocol's document rules), or a stream
// item by item (each typed by its discriminator, with the protocol's stream rules), in flat memory.
import { stat } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import {
  describeErrors,
  eachNdjsonItem,
  type StreamFraming as Framing,
  jsonErrorPosition,
  jsonLocator,
  type ParsedFrame,
  parseFrames,
  readFrames,
  type StreamIssue,
  type TextPosition,
} from '@agentproto/runtime/contract';
import { ResourceError } from '../../exit-codes.js';
import type { ProtocolVersion } from '../../protocols.js';
import { collect } from './formats.js';
import { got } from './got.js';
import type { InputIssue, ItemCount } from './reporters.js';
import { typeOf, typeValidator, untypedMessage } from './types.js';

/**
 * How many times its size a JSON document takes in memory while it is parsed and checked (the text, the parsed
 * value, the validator's work); YAML takes more, as its parser builds a syntax tree first.
 */
const MEMORY_PER_BYTE = { json: 8, yaml: 40 } as const;

/**
 * Checks one JSON or YAML document against its type (--type, else its folder's name), then the protocol's document
 * rules; issues carry the line and column of their pointer.
 */
export async function validateDocument(
  protocol: ProtocolVersion,
  file: string,
  chunks: AsyncIterable<string | Uint8Array>,
  syntax: 'json' | 'yaml',
  type: string | undefined,
  found: (issue: InputIssue) => void,
  otherVersion?: (typeName: string, value: unknown) => Promise<string | undefined>,
): Promise<void> {
  if (file !== '-') {
    // Refuse what cannot fit before reading it: running out of heap kills the process without a word.
    const size = (await stat(file)).size;
    const heap = getHeapStatistics();
    const room = heap.heap_size_limit - heap.used_heap_size;
    if (size * MEMORY_PER_BYTE[syntax] > room)
      throw new ResourceError(
        `${file} is ${mb(size)} of ${syntax.toUpperCase()}, more than this process can check as one document ` +
          `(about ${mb(room / MEMORY_PER_BYTE[syntax])} with its ${mb(heap.heap_size_limit)} heap): write it as ` +
          'NDJSON, one message a line, or give Node.js more heap (NODE_OPTIONS=--max-old-space-size=<MB>)',
      );
  }
  const text = await collect(chunks);
  // Two inputs whose parse error would only puzzle: nothing at all, and text that is not UTF-8.
  if (text.trim() === '') {
    found({
      line: 1,
      pointer: '',
      message: `the file is empty: one ${syntax.toUpperCase()} document was expected`,
    });
    return;
  }
  if (looksUtf16(text)) {
    found({
      line: 1,
      pointer: '',
      message: 'is not UTF-8 text: it looks like UTF-16 (a NUL byte beside each character); save it as UTF-8',
    });
    return;
  }
  let value: unknown;
  let locate: (pointer: string) => TextPosition | number | undefined;
  try {
    if (syntax === 'yaml') {
      // The YAML library loads only for YAML documents.
      const { parseYamlWithLocator } = await import('@agentproto/runtime/locate');
      const parsed = parseYamlWithLocator(text);
      value = parsed.value;
      locate = parsed.locate;
    } else {
      value = JSON.parse(text);
      locate = jsonLocator(text);
    }
  } catch (error) {
    const at = syntax === 'json' ? await jsonSyntaxPosition(text, error) : undefined;
    found({
      ...(at ? { line: at.line, column: at.column } : {}),
      pointer: '',
      message:
        error instanceof RangeError
          ? `not ${syntax === 'yaml' ? 'YAML' : 'JSON'} this command can hold: it nests too deeply`
          : `not ${syntax === 'yaml' ? 'YAML' : 'JSON'}: ${error instanceof Error ? error.message : String(error)}`,
    });
    return;
  }
  // A file that is not JSON says so first; only a document has a type to tell.
  const typeName = type ?? typeOf(protocol, file);
  if (typeName === undefined) {
    found({ pointer: '', message: untypedMessage(file) });
    return;
  }
  const validate = typeValidator(protocol, typeName);
  const line = (pointer: string) => {
    const at = locate(pointer);
    return typeof at === 'number' ? { line: at } : at ? { line: at.line } : { line: 1 };
  };
  let valid: boolean;
  try {
    valid = validate(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    found({ pointer: '', message: 'nests too deeply for its schema to be checked', type: typeName });
    return;
  }
  if (!valid) {
    // A JSON-RPC envelope checked as the type it carries: one line that says so, then the payload's own issues.
    const payload = envelopePayload(value);
    if (payload) {
      const inner = payload.value;
      const innerValid = validate(inner);
      found({
        line: 1,
        pointer: '',
        message: `is a JSON-RPC 2.0 envelope, not a ${typeName}: ${
          innerValid
            ? `its ${payload.at} is a valid ${typeName}; check envelopes with --format jsonrpc, or the ${payload.at} alone`
            : `its ${payload.at} is checked as the ${typeName} below; --format jsonrpc checks envelopes`
        }`,
        type: typeName,
      });
      if (!innerValid)
        for (const issue of describeErrors(validate.errors))
          found({
            ...line(`${payload.at}${issue.pointer}`),
            pointer: `${payload.at}${issue.pointer}`,
            message: issue.message,
            ...got(inner, issue.pointer),
            type: typeName,
          });
      return;
    }
    for (const issue of describeErrors(validate.errors))
      found({
        ...line(issue.pointer),
        pointer: issue.pointer,
        message: issue.message,
        ...got(value, issue.pointer),
        type: typeName,
      });
    // A document another version of the protocol takes: say which (an A2A 0.3 task checked as 1.0).
    const other = await otherVersion?.(typeName, value);
    if (other)
      found({
        line: 1,
        pointer: '',
        message: `hint: it is a valid ${typeName} of ${other}: was --protocol ${other} meant?`,
      });
    return;
  }
  // The protocol's own rules for this type, beyond its schema.
  for (const issue of protocol.documentRules?.[typeName]?.(value) ?? [])
    found({
      ...line(issue.pointer),
      pointer: issue.pointer,
      message: issue.message,
      ...got(value, issue.pointer),
      rule: issue.rule,
    });
}

/** Text decoded from UTF-16 as UTF-8: NUL bytes between the characters (or its byte order mark, undecodable). */
function looksUtf16(text: string): boolean {
  const head = text.slice(0, 64);
  if (head.startsWith('\uFFFD\uFFFD')) return true;
  // UTF-16 of ASCII text: a NUL at every other position, from the first or the second character on.
  const nul = head.indexOf('\u0000');
  return nul >= 0 && nul <= 1 && head.charAt(nul + 2) === '\u0000';
}

/** The payload of a JSON-RPC 2.0 envelope (its `result`, else its `params`) and where it sits, or undefined. */
function envelopePayload(value: unknown): { at: '/result' | '/params'; value: unknown } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Reflect.get(value, 'jsonrpc') !== '2.0') return undefined;
  if (Object.hasOwn(value, 'result')) return { at: '/result', value: Reflect.get(value, 'result') };
  if (Object.hasOwn(value, 'params')) return { at: '/params', value: Reflect.get(value, 'params') };
  return undefined;
}

/** Where a JSON text stops being JSON: from the parser's message, or for a small text from a second, locating parse. */
async function jsonSyntaxPosition(text: string, error: unknown): Promise<TextPosition | undefined> {
  const fromMessage = jsonErrorPosition(text, error);
  if (fromMessage || text.length > 32 * 1024 * 1024) return fromMessage;
  const { JsonSyntaxError, parseJsonWithLocator } = await import('@agentproto/runtime/locate');
  try {
    parseJsonWithLocator(text);
  } catch (located) {
    if (located instanceof JsonSyntaxError) return { line: located.line, column: located.column };
  }
  return undefined;
}

function mb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/**
 * Checks a stream item by item; returns how many items it read and how many of them have an issue (the stream's end
 * rules are about the whole stream, not an item).
 */
export async function validateStream(
  protocol: ProtocolVersion,
  file: string,
  chunks: AsyncIterable<string | Uint8Array>,
  framing: Framing,
  type: string | undefined,
  found: (issue: InputIssue) => void,
  progress?: (items: number) => void,
): Promise<ItemCount> {
  // With --type every item is that type; without it the protocol's own stream check types each item.
  const check = type === undefined ? protocol.streamCheck?.() : undefined;
  const typeName = check ? undefined : (type ?? typeOf(protocol, file));
  if (!check && typeName === undefined) {
    found({ pointer: '', message: untypedMessage(file) });
    return { items: 0, invalid: 0 };
  }
  const validate = typeName === undefined ? undefined : typeValidator(protocol, typeName);
  // `item`: the item the issue is in, whose value it shows; none for an issue of the whole stream.
  const report = (i: StreamIssue, item?: unknown) =>
    found({
      ...(i.line === undefined ? {} : { line: i.line }),
      event: i.index,
      pointer: i.pointer,
      message: i.message,
      ...(item === undefined ? {} : got(item, i.pointer)),
      ...(i.rule === 'schema' ? { type: i.type ?? typeName ?? 'item' } : { rule: i.rule }),
    });
  let items = 0;
  let invalid = 0;
  let shown = Date.now();
  const onFrame = (frame: ParsedFrame) => {
    items++;
    if (progress && (items & 0x3ff) === 0 && Date.now() - shown > 500) {
      shown = Date.now();
      progress(items);
    }
    if (!frame.ok) {
      invalid++;
      found({ line: frame.line, event: frame.index, pointer: '', message: frame.error });
      return;
    }
    const at = { index: frame.index, line: frame.line };
    if (check) {
      const issues = check.push(frame.value, at);
      if (issues.length > 0) invalid++;
      for (const issue of issues) report(issue, issue.index === frame.index ? frame.value : undefined);
    } else if (validate && !validate(frame.value)) {
      invalid++;
      for (const i of describeErrors(validate.errors))
        report({ ...at, pointer: i.pointer, message: i.message, rule: 'schema' }, frame.value);
    }
  };
  // NDJSON takes the fast path (no async step per line); SSE goes through the event-stream parser.
  if (framing === 'ndjson') await eachNdjsonItem(chunks, onFrame);
  else {
    // An event no blank line ends (the capture was cut inside it) is dropped by SSE readers: an invalid item here.
    const cut = (line: number) => {
      items++;
      invalid++;
      found({
        line,
        event: items,
        pointer: '',
        message: 'the stream ends inside this event: no blank line ends it, so an SSE reader drops it',
      });
    };
    for await (const frame of parseFrames(readFrames(chunks, framing, undefined, cut))) onFrame(frame);
  }
  if (check) for (const issue of check.end()) report(issue);
  else if (items === 0) found({ pointer: '', message: 'the stream holds no items' });
  return { items, invalid };
}
