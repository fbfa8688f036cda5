import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type JsonSyntaxError, parseJsonWithLocator, parseYamlWithLocator } from '@agentproto/codegen';
import { describeErrors, parseFrames, readFrames, type StreamIssue } from '@agentproto/runtime';
import { ExitCode, UsageError } from '../exit-codes.js';
import { type Framing, type ProtocolVersion, resolveProtocol } from '../protocols.js';

/** How an input is read: one JSON (or YAML) document, or a stream of items. `auto` decides per file. */
export type InputFormat = 'auto' | 'json' | 'yaml' | 'ndjson' | 'sse';

/** Options of `agentproto validate`. */
export interface ValidateOptions {
  protocol: string;
  type?: string;
  format?: InputFormat;
}

/** Where the command writes. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Standard input, chunk by chunk, for the `-` input. */
  stdin: () => AsyncIterable<string | Uint8Array>;
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
  const files: string[] = [];
  for (const input of inputs) files.push(...(await expand(input)));
  let invalid = 0;
  for (const file of files) {
    const label = file === '-' ? '<stdin>' : file;
    let chunks = file === '-' ? io.stdin() : (createReadStream(file) as AsyncIterable<Uint8Array>);
    let fileFormat = format === 'auto' ? BY_EXTENSION[path.extname(file).toLowerCase()] : format;
    if (!fileFormat) {
      const peeked = await peek(chunks);
      fileFormat = sniff(peeked.head);
      chunks = peeked.chunks;
    }
    const ok =
      fileFormat === 'json' || fileFormat === 'yaml'
        ? await validateDocument(protocol, file, label, chunks, fileFormat, options.type, io)
        : await validateStream(protocol, file, label, chunks, fileFormat, options.type, io);
    if (!ok) invalid++;
  }
  const summary = `${files.length - invalid} valid, ${invalid} invalid (${protocol.protocol}@${protocol.version})`;
  io.out(summary);
  return invalid > 0 ? ExitCode.invalid : ExitCode.ok;
}

async function validateDocument(
  protocol: ProtocolVersion,
  file: string,
  label: string,
  chunks: AsyncIterable<string | Uint8Array>,
  syntax: 'json' | 'yaml',
  type: string | undefined,
  io: Output,
): Promise<boolean> {
  const typeName = type ?? inferType(protocol, file);
  const validate = typeValidator(protocol, typeName);
  const text = await collect(chunks);
  let parsed: ReturnType<typeof parseJsonWithLocator>;
  try {
    parsed = syntax === 'yaml' ? parseYamlWithLocator(text) : parseJsonWithLocator(text);
  } catch (error) {
    const e = error as Partial<JsonSyntaxError>;
    const at = e.line === undefined ? '' : `${e.line}:${e.column}:`;
    io.err(`${label}:${at} (root): not ${syntax === 'yaml' ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
    return false;
  }
  const where = (pointer: string) =>
    `${label}:${parsed.locate(pointer) ?? 1}: ${pointer === '' ? '(root)' : pointer}`;
  if (!validate(parsed.value)) {
    for (const issue of describeErrors(validate.errors))
      io.err(`${where(issue.pointer)}: ${issue.message} (${typeName})`);
    return false;
  }
  // The protocol's own rules for this type, beyond its schema.
  const issues = protocol.documentRules?.[typeName]?.(parsed.value) ?? [];
  for (const issue of issues) io.err(`${where(issue.pointer)}: ${issue.message} [${issue.rule}]`);
  return issues.length === 0;
}

async function validateStream(
  protocol: ProtocolVersion,
  file: string,
  label: string,
  chunks: AsyncIterable<string | Uint8Array>,
  framing: Framing,
  type: string | undefined,
  io: Output,
): Promise<boolean> {
  // With --type every item is that type; without it the protocol's own stream check types each item.
  const check = type === undefined ? protocol.streamCheck?.() : undefined;
  const typeName = check ? undefined : (type ?? inferType(protocol, file));
  const validate = typeName === undefined ? undefined : typeValidator(protocol, typeName);
  let problems = 0;
  const report = (issue: StreamIssue) => {
    problems++;
    const where = issue.line === undefined ? label : `${label}:${issue.line}`;
    const pointer = issue.pointer === '' ? '(event)' : issue.pointer;
    const why = issue.rule === 'schema' ? `(${issue.type ?? typeName})` : `[${issue.rule}]`;
    io.err(`${where}: event ${issue.index}: ${pointer}: ${issue.message} ${why}`);
  };
  let items = 0;
  for await (const frame of parseFrames(readFrames(chunks, framing))) {
    items++;
    if (!frame.ok) {
      report({ index: frame.index, line: frame.line, pointer: '', message: frame.error, rule: 'schema' });
      continue;
    }
    const at = { index: frame.index, line: frame.line };
    if (check) {
      for (const issue of check.push(frame.value, at)) report(issue);
    } else if (validate && !validate(frame.value)) {
      for (const i of describeErrors(validate.errors))
        report({ ...at, pointer: i.pointer, message: i.message, rule: 'schema' });
    }
  }
  if (check) for (const issue of check.end()) report(issue);
  else if (items === 0)
    report({ index: 0, pointer: '', message: 'the stream holds no items', rule: 'schema' });
  return problems === 0;
}

function typeValidator(protocol: ProtocolVersion, typeName: string) {
  const validate = protocol.validators[typeName];
  if (!validate) {
    throw new UsageError(
      `${protocol.protocol}@${protocol.version} has no type "${typeName}"; known: ${Object.keys(protocol.validators).join(', ')}`,
    );
  }
  return validate;
}

function inferType(protocol: ProtocolVersion, file: string): string {
  const folder = file === '-' ? '' : path.basename(path.dirname(path.resolve(file)));
  if (protocol.validators[folder]) return folder;
  if (protocol.rootType) return protocol.rootType;
  throw new UsageError(
    `cannot tell the type of ${file === '-' ? 'standard input' : file}: pass --type <TypeName> ` +
      `(or keep the file in a folder named after its type)`,
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

async function expand(input: string): Promise<string[]> {
  if (input === '-') return ['-'];
  const info = await stat(input).catch(() => undefined);
  if (!info) throw new UsageError(`cannot read ${input}: no such file or folder`);
  if (info.isFile()) return [input];
  if (!info.isDirectory()) throw new UsageError(`cannot read ${input}: not a file or folder`);
  const out: string[] = [];
  const entries = (await readdir(input, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const e of entries) {
    const p = path.join(input, e.name);
    if (e.isDirectory()) out.push(...(await expand(p)));
    else if (path.extname(e.name).toLowerCase() in BY_EXTENSION) out.push(p);
  }
  return out;
}
