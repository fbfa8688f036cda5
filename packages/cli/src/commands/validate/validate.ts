// `agentproto validate`: the command itself. It reads its inputs (inputs.ts), decides each one's format
// (formats.ts), checks it (check.ts, or workers.ts for a parallel NDJSON file) and reports (reporters.ts).
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { knownProtocols } from '@agentproto/registry';
import { plain } from '../../colors.js';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { Output } from '../../output.js';
import { type ProtocolVersion, resolveBinding, resolveProtocol } from '../../protocols.js';
import { validateDocument, validateStream } from './check.js';
import {
  BY_EXTENSION,
  FORMATS,
  type InputFormat,
  opensJsonRpcExchange,
  peek,
  SESSION_SUFFIX,
  sniff,
} from './formats.js';
import { expand, type Unreadable } from './inputs.js';
import { TranscriptUsageError, validateJsonRpcTranscript } from './jsonrpc-transcript.js';
import {
  formatIssue,
  type InputIssue,
  type InputResult,
  type ItemCount,
  junit,
  MAX_KEPT_ISSUES,
  REPORTERS,
  summarize,
  summaryLine as summaryOf,
  type ValidateReporter,
} from './reporters.js';
import { validateSession } from './session.js';
import { typeValidator } from './types.js';
import { validateInWorkers } from './workers.js';

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

/**
 * `agentproto validate <file|dir|->... --protocol <id>[@<version>] [--type <TypeName>] [--format auto|json|ndjson|sse]`.
 * A JSON document is checked against its type; without --type, a file's type is the name of the folder it is in (the
 * layout of examples/ and counterexamples/). A stream (NDJSON or SSE) is read item by item, in flat memory: without
 * --type each item is typed by the protocol's discriminator and the protocol's stream rules run too. Prints
 * `file:line: pointer: message (Type) (got value)` per error (`file:line: event N: …` inside streams), then a summary that
 * counts documents by file and streams by item.
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
      throw new UsageError(
        `cannot write ${options.out}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const paint = fd === undefined ? (io.paint ?? plain) : plain;
  // A const for the closure below: the narrowing of the `let` does not reach into it.
  const outFd = fd;
  const write = outFd === undefined ? io.out : (line: string) => writeSync(outFd, `${line}\n`);
  const issueLine = (label: string, issue: InputIssue) => {
    const line = formatIssue(label, issue);
    const at = line.indexOf(': ');
    return at > 0 ? `${paint('red', line.slice(0, at))}${line.slice(at)}` : line;
  };
  // Another version of the protocol that takes a document this one refuses (loaded only when one is refused).
  const others = new Map<string, Promise<ProtocolVersion | undefined>>();
  const otherVersion = async (typeName: string, value: unknown): Promise<string | undefined> => {
    const known = knownProtocols().find((p) => p.protocol === protocol.protocol);
    for (const { version } of known?.versions ?? []) {
      if (version === protocol.version) continue;
      const spec = `${protocol.protocol}@${version}`;
      if (!others.has(spec))
        others.set(
          spec,
          resolveProtocol(spec).catch(() => undefined),
        );
      const validator = (await others.get(spec))?.validators[typeName];
      if (validator?.(value)) return spec;
    }
    return undefined;
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
    let chunks: AsyncIterable<string | Uint8Array> = file === '-' ? io.stdin() : createReadStream(file);
    let fileFormat =
      format !== 'auto'
        ? format
        : file.toLowerCase().endsWith(SESSION_SUFFIX)
          ? 'session'
          : BY_EXTENSION[path.extname(file).toLowerCase()];
    // What the name does not say is read from the first bytes; and an NDJSON input that opens a JSON-RPC exchange is
    // a transcript, unless a --type says what each line is.
    const auto = format === 'auto';
    if (!fileFormat || (auto && fileFormat === 'ndjson' && options.type === undefined)) {
      const peeked = await peek(chunks);
      fileFormat ??= sniff(peeked.head);
      if (auto && fileFormat === 'ndjson' && options.type === undefined && opensJsonRpcExchange(peeked.head))
        fileFormat = 'jsonrpc';
      chunks = peeked.chunks;
    }
    const sniffedTranscript = auto && fileFormat === 'jsonrpc';
    const result: InputResult = { file: label, format: fileFormat, valid: true, issues: [] };
    const found = (issue: InputIssue) => {
      result.valid = false;
      // Text is written as it is found; the other reports keep a bounded number of issues per input.
      if (reporter === 'text') write(issueLine(label, issue));
      else if (result.issues.length < MAX_KEPT_ISSUES) result.issues.push(issue);
      else result.truncated = true;
    };
    // A stream's result holds its items, and how many of them are invalid.
    const counted = ({ items, invalid }: ItemCount) => {
      result.items = items;
      result.invalidItems = invalid;
    };
    if (fileFormat === 'session') {
      counted(await validateSession(await resolveBinding(options.protocol), chunks, found));
    } else if (fileFormat === 'jsonrpc') {
      const binding = await resolveBinding(options.protocol);
      counted(
        await validateJsonRpcTranscript(binding, chunks, found).catch((error: unknown) => {
          if (!(error instanceof TranscriptUsageError)) throw error;
          throw new UsageError(
            sniffedTranscript
              ? `${error.message}: ${label} was read as a JSON-RPC transcript because its first line is a JSON-RPC request; pass --format ndjson to check its lines as items`
              : error.message,
          );
        }),
      );
    } else if (fileFormat === 'json' || fileFormat === 'yaml') {
      await validateDocument(protocol, file, chunks, fileFormat, options.type, found, otherVersion);
    } else if (
      (options.workers ?? 1) > 1 &&
      fileFormat === 'ndjson' &&
      file !== '-' &&
      options.type !== undefined
    ) {
      // Items are independent when checked against one type: byte ranges of the file go to parallel workers.
      typeValidator(protocol, options.type);
      counted(await validateInWorkers(protocol, file, options.type, options.workers ?? 1, found));
    } else {
      const progress = reporter === 'text' ? io.progress : undefined;
      counted(
        await validateStream(
          protocol,
          file,
          chunks,
          fileFormat,
          options.type,
          found,
          progress && ((n) => progress(`${label}: ${n} items checked`)),
        ),
      );
      progress?.('');
    }
    results.push(result);
  }
  const summary = summarize(results);
  const { invalid } = summary;
  const summaryLine = summaryOf(results, `${protocol.protocol}@${protocol.version}`);
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
