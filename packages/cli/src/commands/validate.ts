import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { StreamFraming as Framing } from '@agentproto/runtime/documents';
import {
  describeErrors,
  eachNdjsonItem,
  escapeXml,
  jsonErrorPosition,
  jsonLocator,
  type ParsedFrame,
  parseFrames,
  printable,
  readFrames,
  type StreamIssue,
  type TextPosition,
} from '@agentproto/runtime/documents';
import { type Paint, plain } from '../colors.js';
import { ExitCode, ResourceError, UsageError } from '../exit-codes.js';
import { type ProtocolVersion, resolveProtocol } from '../protocols.js';
import type { WorkerResult, WorkerTask } from './validate-worker.js';

/** How an input is read: one JSON (or YAML) document, or a stream of items. `auto` decides per file. */
export type InputFormat = 'auto' | 'json' | 'yaml' | 'ndjson' | 'sse';

/** Options of `agentproto validate`. */
export interface ValidateOptions {
  protocol: string;
  type?: string;
  format?: InputFormat;
  reporter?: ValidateReporter;
  /** Worker threads for NDJSON files checked against one `--type` (default 1: the main thread). */
  workers?: number;
  /** Write the report (issues and summary, or the JSON or JUnit document) to this file instead of standard output. */
  out?: string;
}

/** How results are written: text lines as they are found, or one JSON or JUnit document at the end. */
export type ValidateReporter = 'text' | 'json' | 'junit';

/** One problem in one input: where (line, item, pointer), what was expected, and the type or rule that says so. */
export interface InputIssue {
  line?: number;
  column?: number;
  /** For streams: the 1-based item number. */
  event?: number;
  pointer: string;
  message: string;
  /** The schema type the value was checked as. */
  type?: string;
  /** The protocol rule broken (rules beyond the schema). */
  rule?: string;
}

/** The outcome for one input. */
export interface InputResult {
  file: string;
  format: string;
  valid: boolean;
  /** For streams: how many items were read. */
  items?: number;
  issues: InputIssue[];
  /** More issues were found than are kept (MAX_KEPT_ISSUES). */
  truncated?: boolean;
}

/** How many issues per input the JSON and JUnit reports keep: memory stays flat however broken an input is. */
export const MAX_KEPT_ISSUES = 1000;

const REPORTERS: readonly ValidateReporter[] = ['text', 'json', 'junit'];

/** Where the command writes. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Standard input, chunk by chunk, for the `-` input. */
  stdin: () => AsyncIterable<string | Uint8Array>;
  /** Rewrites a progress line in place; only given for a terminal (not in CI logs). */
  progress?: (line: string) => void;
  /** Colours for text written by `out` (plain unless it is a terminal with colours; see colors.ts). */
  paint?: Paint;
}

const FORMATS: readonly InputFormat[] = ['auto', 'json', 'yaml', 'ndjson', 'sse'];
const BY_EXTENSION: Readonly<Record<string, Exclude<InputFormat, 'auto'>>> = {
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.sse': 'sse',
};

/**
 * `agentproto validate <file|dir|->... --protocol <id>[@<version>] [--type <TypeName>] [--format auto|json|ndjson|sse]`.
 * A JSON document is checked against its type; without --type, a file's type is the name of the folder it is in (the
 * layout of examples/ and counterexamples/). A stream (NDJSON or SSE) is read item by item, in flat memory: without
 * --type each item is typed by the protocol's discriminator and the protocol's stream rules run too. Prints
 * `file:line: pointer: message` per error (`file:line: event N: …` inside streams).
 */
export async function validateCommand(
  inputs: readonly string[],
  options: ValidateOptions,
  io: Output,
): Promise<number> {
  const protocol = await resolveProtocol(options.protocol);
  const format = options.format ?? 'auto';
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  if (options.type !== undefined) typeValidator(protocol, options.type);
  if (inputs.length === 0) throw new UsageError('name at least one file, folder, or - for standard input');
  const files: Array<string | Unreadable> = [];
  for (const input of inputs) files.push(...(await expand(input)));
  // A run that checked nothing must not read as a pass.
  if (files.length === 0)
    throw new UsageError(
      `nothing to check in ${inputs.join(', ')}: no ${Object.keys(BY_EXTENSION).join(', ')} files there`,
    );
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new UsageError('--workers must be a whole number from 1 to 64');
  const reporter = options.reporter ?? 'text';
  if (!REPORTERS.includes(reporter))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
  // Issues and the summary go to one stream, in order: standard output, or the --out file (then standard output
  // gets the summary line alone).
  // Lines go to the file as they are found, so memory stays flat however many issues there are.
  let fd: number | undefined;
  if (options.out) {
    try {
      fd = openSync(options.out, 'w');
    } catch (error) {
      throw new UsageError(`cannot write ${options.out}: ${(error as Error).message}`);
    }
  }
  const paint = fd === undefined ? (io.paint ?? plain) : plain;
  const write = fd === undefined ? io.out : (line: string) => writeSync(fd as number, `${line}\n`);
  const issueLine = (label: string, issue: InputIssue) => {
    const line = formatIssue(label, issue);
    const at = line.indexOf(': ');
    return at > 0 ? `${paint('red', line.slice(0, at))}${line.slice(at)}` : line;
  };
  const results: InputResult[] = [];
  for (const entry of files) {
    if (typeof entry !== 'string') {
      // An input that cannot be read is that input's issue; the others are still checked.
      const result: InputResult = { file: entry.file, format: 'unread', valid: false, issues: [] };
      const issue = { pointer: '', message: entry.why };
      if (reporter === 'text') write(issueLine(entry.file, issue));
      else result.issues.push(issue);
      results.push(result);
      continue;
    }
    const file = entry;
    const label = file === '-' ? '<stdin>' : file;
    let chunks = file === '-' ? io.stdin() : (createReadStream(file) as AsyncIterable<Uint8Array>);
    let fileFormat = format === 'auto' ? BY_EXTENSION[path.extname(file).toLowerCase()] : format;
    if (!fileFormat) {
      const peeked = await peek(chunks);
      fileFormat = sniff(peeked.head);
      chunks = peeked.chunks;
    }
    const result: InputResult = { file: label, format: fileFormat, valid: true, issues: [] };
    const found = (issue: InputIssue) => {
      result.valid = false;
      // Text is written as it is found; the other reports keep a bounded number of issues per input.
      if (reporter === 'text') write(issueLine(label, issue));
      else if (result.issues.length < MAX_KEPT_ISSUES) result.issues.push(issue);
      else result.truncated = true;
    };
    if (fileFormat === 'json' || fileFormat === 'yaml') {
      await validateDocument(protocol, file, chunks, fileFormat, options.type, found);
    } else if (
      (options.workers ?? 1) > 1 &&
      fileFormat === 'ndjson' &&
      file !== '-' &&
      options.type !== undefined
    ) {
      // Items are independent when checked against one type: byte ranges of the file go to parallel workers.
      typeValidator(protocol, options.type);
      result.items = await validateInWorkers(protocol, file, options.type, options.workers ?? 1, found);
    } else {
      const progress = reporter === 'text' ? io.progress : undefined;
      result.items = await validateStream(
        protocol,
        file,
        chunks,
        fileFormat,
        options.type,
        found,
        progress && ((n) => progress(`${label}: ${n} items checked`)),
      );
      progress?.('');
    }
    results.push(result);
  }
  const invalid = results.filter((r) => !r.valid).length;
  const summary = { files: results.length, valid: results.length - invalid, invalid };
  const summaryLine = `${summary.valid} valid, ${invalid} invalid (${protocol.protocol}@${protocol.version})`;
  if (reporter === 'json') {
    write(
      JSON.stringify({ protocol: protocol.protocol, version: protocol.version, summary, results }, null, 2),
    );
  } else if (reporter === 'junit') {
    write(junit(protocol, results, invalid));
  } else {
    write(paint(invalid > 0 ? 'red' : 'green', summaryLine));
  }
  if (fd !== undefined) {
    closeSync(fd);
    io.out(`${(io.paint ?? plain)(invalid > 0 ? 'red' : 'green', summaryLine)} (report: ${options.out})`);
  }
  return invalid > 0 ? ExitCode.invalid : ExitCode.ok;
}

/** An issue as a text line: `file:line: pointer: message (Type)`, inside streams `file:line: event N: …`. */
export function formatIssue(label: string, i: InputIssue): string {
  const where =
    i.line === undefined ? label : `${label}:${i.line}${i.column === undefined ? '' : `:${i.column}`}`;
  const event = i.event === undefined ? '' : ` event ${i.event}:`;
  const pointer = i.pointer === '' ? (i.event === undefined ? '(root)' : '(event)') : i.pointer;
  const why = i.rule ? ` [${i.rule}]` : i.type ? ` (${i.type})` : '';
  // File names and messages quote what the input holds: control characters must not reach the terminal raw.
  return printable(`${where}:${event} ${pointer}: ${i.message}${why}`);
}

/** JUnit XML: one testcase per input, its issues in the failure. */
function junit(protocol: ProtocolVersion, results: readonly InputResult[], invalid: number): string {
  const name = escapeXml(`agentproto validate ${protocol.protocol}@${protocol.version}`);
  const cases = results.map((r) => {
    const open = `    <testcase classname="${escapeXml(`${protocol.protocol}.${r.format}`)}" name="${escapeXml(r.file)}">`;
    if (r.valid) return `${open}</testcase>`;
    const lines = r.issues.map((i) => formatIssue(r.file, i)).join('\n') + (r.truncated ? '\n…' : '');
    const first = r.issues[0] ? formatIssue(r.file, r.issues[0]) : 'invalid';
    return `${open}\n      <failure message="${escapeXml(first)}">${escapeXml(lines)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${results.length}" failures="${invalid}">`,
    `  <testsuite name="${name}" tests="${results.length}" failures="${invalid}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

/**
 * How many times its size a JSON document takes in memory while it is parsed and checked (the text, the parsed
 * value, the validator's work); YAML takes more, as its parser builds a syntax tree first.
 */
const MEMORY_PER_BYTE = { json: 8, yaml: 40 } as const;

async function validateDocument(
  protocol: ProtocolVersion,
  file: string,
  chunks: AsyncIterable<string | Uint8Array>,
  syntax: 'json' | 'yaml',
  type: string | undefined,
  found: (issue: InputIssue) => void,
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
          : `not ${syntax === 'yaml' ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
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
    for (const issue of describeErrors(validate.errors))
      found({ ...line(issue.pointer), pointer: issue.pointer, message: issue.message, type: typeName });
    return;
  }
  // The protocol's own rules for this type, beyond its schema.
  for (const issue of protocol.documentRules?.[typeName]?.(value) ?? [])
    found({ ...line(issue.pointer), pointer: issue.pointer, message: issue.message, rule: issue.rule });
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

/** Checks a stream item by item; returns how many items it read. */
async function validateStream(
  protocol: ProtocolVersion,
  file: string,
  chunks: AsyncIterable<string | Uint8Array>,
  framing: Framing,
  type: string | undefined,
  found: (issue: InputIssue) => void,
  progress?: (items: number) => void,
): Promise<number> {
  // With --type every item is that type; without it the protocol's own stream check types each item.
  const check = type === undefined ? protocol.streamCheck?.() : undefined;
  const typeName = check ? undefined : (type ?? typeOf(protocol, file));
  if (!check && typeName === undefined) {
    found({ pointer: '', message: untypedMessage(file) });
    return 0;
  }
  const validate = typeName === undefined ? undefined : typeValidator(protocol, typeName);
  const report = (i: StreamIssue) =>
    found({
      ...(i.line === undefined ? {} : { line: i.line }),
      event: i.index,
      pointer: i.pointer,
      message: i.message,
      ...(i.rule === 'schema' ? { type: i.type ?? typeName ?? 'item' } : { rule: i.rule }),
    });
  let items = 0;
  let shown = Date.now();
  const onFrame = (frame: ParsedFrame) => {
    items++;
    if (progress && (items & 0x3ff) === 0 && Date.now() - shown > 500) {
      shown = Date.now();
      progress(items);
    }
    if (!frame.ok) {
      found({ line: frame.line, event: frame.index, pointer: '', message: frame.error });
      return;
    }
    const at = { index: frame.index, line: frame.line };
    if (check) {
      for (const issue of check.push(frame.value, at)) report(issue);
    } else if (validate && !validate(frame.value)) {
      for (const i of describeErrors(validate.errors))
        report({ ...at, pointer: i.pointer, message: i.message, rule: 'schema' });
    }
  };
  // NDJSON takes the fast path (no async step per line); SSE goes through the event-stream parser.
  if (framing === 'ndjson') await eachNdjsonItem(chunks, onFrame);
  else for await (const frame of parseFrames(readFrames(chunks, framing))) onFrame(frame);
  if (check) for (const issue of check.end()) report(issue);
  else if (items === 0) found({ pointer: '', message: 'the stream holds no items' });
  return items;
}

/**
 * Checks an NDJSON file against one type with `workers` threads: the file is cut at line starts into byte ranges, each
 * worker reads and checks its own range, and the issues come back renumbered from the start of the file, in order.
 */
async function validateInWorkers(
  protocol: ProtocolVersion,
  file: string,
  type: string,
  workers: number,
  found: (issue: InputIssue) => void,
): Promise<number> {
  const size = (await stat(file)).size;
  const cuts = [0];
  const handle = await open(file, 'r');
  try {
    for (let k = 1; k < workers; k++) {
      // The range starts after the first newline at or past its share of the bytes.
      let at = Math.max(Math.floor((size * k) / workers), cuts.at(-1) ?? 0);
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
        if (bytesRead === 0) {
          at = size;
          break;
        }
        const nl = buffer.subarray(0, bytesRead).indexOf(10);
        if (nl !== -1) {
          at += nl + 1;
          break;
        }
        at += bytesRead;
      }
      cuts.push(Math.min(at, size));
    }
  } finally {
    await handle.close();
  }
  cuts.push(size);
  // In the workspace the CLI runs from TypeScript sources through tsx; its workers must too.
  const source = import.meta.url.endsWith('.ts');
  const script = new URL(`./validate-worker.${source ? 'ts' : 'js'}`, import.meta.url);
  const results = await Promise.all(
    cuts.slice(0, -1).map(
      (start, k) =>
        new Promise<WorkerResult>((resolve, reject) => {
          const task: WorkerTask = {
            file,
            start,
            end: cuts[k + 1] ?? size,
            protocol: `${protocol.protocol}@${protocol.version}`,
            type,
            maxIssues: MAX_KEPT_ISSUES,
          };
          // A worker thread does not inherit tsx's loader: from sources, a small script registers it first.
          const worker = source
            ? new Worker(
                `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); });`,
                { eval: true, workerData: task },
              )
            : new Worker(script, { workerData: task });
          worker.once('message', (r: WorkerResult) => resolve(r));
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`a validate worker stopped with code ${code}`));
          });
        }),
    ),
  );
  let lineOffset = 0;
  let itemOffset = 0;
  for (const r of results) {
    for (const i of r.issues)
      found({
        line: i.line + lineOffset,
        event: i.event + itemOffset,
        pointer: i.pointer,
        message: i.message,
        ...(i.type ? { type: i.type } : {}),
      });
    lineOffset += r.lines;
    itemOffset += r.items;
  }
  return itemOffset;
}

function typeValidator(protocol: ProtocolVersion, typeName: string) {
  const validate = protocol.validators[typeName];
  if (!validate) {
    const known = Object.keys(protocol.validators);
    const near = closest(typeName, known);
    throw new UsageError(
      `${protocol.protocol}@${protocol.version} has no type "${typeName}"` +
        `${near ? `; did you mean ${near}?` : ''} Known: ${known.join(', ')}`,
    );
  }
  return validate;
}

/** The known name nearest to a mistyped one (case aside; two edits, or a third of its letters, at most), if any. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(
        Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost),
      );
    }
    previous = row;
  }
  return previous[b.length] as number;
}

function typeOf(protocol: ProtocolVersion, file: string): string | undefined {
  const folder = file === '-' ? '' : path.basename(path.dirname(path.resolve(file)));
  if (protocol.validators[folder]) return folder;
  return protocol.rootType;
}

function untypedMessage(file: string): string {
  return (
    `cannot tell the type of ${file === '-' ? 'standard input' : 'this file'}: pass --type <TypeName> ` +
    '(or keep the file in a folder named after its type)'
  );
}

/** Reads the first chunk, and gives back a stream that still starts with it. */
async function peek(chunks: AsyncIterable<string | Uint8Array>) {
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
      JSON.parse(text.slice(0, newline));
      return 'ndjson';
    } catch {
      // The first line is only part of a document.
    }
  }
  return 'json';
}

async function collect(chunks: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const c of chunks) text += typeof c === 'string' ? c : decoder.decode(c, { stream: true });
  return text + decoder.decode();
}

/** An input that cannot be checked, and why. */
interface Unreadable {
  file: string;
  why: string;
}

/**
 * The files an input names: itself (a file, a FIFO or `-`, read as given), or, for a folder, every regular file
 * inside with a known extension, recursively. Links are followed, each folder once (a link loop ends there); an entry
 * that cannot be read, or that is not a regular file, is listed as unreadable with the reason.
 */
async function expand(input: string, seen = new Set<string>()): Promise<Array<string | Unreadable>> {
  if (input === '-') return ['-'];
  const info = await stat(input).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    if (info.code === 'ENOENT') throw new UsageError(`cannot read ${input}: no such file or folder`);
    return [{ file: input, why: `cannot read: ${info.code ?? info.message}` }];
  }
  if (!info.isDirectory()) return [input];
  const real = await realpath(input).catch(() => input);
  if (seen.has(real)) return [];
  seen.add(real);
  const out: Array<string | Unreadable> = [];
  let entries: string[];
  try {
    entries = (await readdir(input)).sort((a, b) => a.localeCompare(b));
  } catch (error) {
    return [
      { file: input, why: `cannot read the folder: ${(error as NodeJS.ErrnoException).code ?? error}` },
    ];
  }
  for (const name of entries) {
    const p = path.join(input, name);
    const entry = await stat(p).catch((error: NodeJS.ErrnoException) => error);
    if (entry instanceof Error) {
      if (path.extname(name).toLowerCase() in BY_EXTENSION)
        out.push({ file: p, why: `cannot read: ${entry.code ?? entry.message}` });
    } else if (entry.isDirectory()) out.push(...(await expand(p, seen)));
    else if (path.extname(name).toLowerCase() in BY_EXTENSION) {
      // A FIFO or device inside a folder would block the walk: only regular files are read there.
      out.push(entry.isFile() ? p : { file: p, why: 'not a regular file (name it on its own to read it)' });
    }
  }
  return out;
}
