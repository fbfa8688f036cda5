// What `agentproto validate` reports: each issue as a `file:line: pointer: message` line (the text reporter, written
// as found), or the whole run as one JSON or JUnit XML document at the end.
import { escapeXml, printable } from '@agentproto/runtime/contract';
import type { ProtocolVersion } from '../../protocols.js';

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
  /**
   * The offending value: the value at the pointer as one line of JSON, cut to GOT_WIDTH characters. Absent when
   * nothing is there (a missing property) or the issue is about the input as a whole.
   */
  got?: string;
}

/** What a stream held: how many items, and how many of them have at least one issue. */
export interface ItemCount {
  items: number;
  invalid: number;
}

/** The outcome for one input. */
export interface InputResult {
  file: string;
  format: string;
  valid: boolean;
  /** For streams: how many items were read. */
  items?: number;
  /** For streams: how many of the items have at least one issue. */
  invalidItems?: number;
  issues: InputIssue[];
  /** More issues were found than are kept (MAX_KEPT_ISSUES). */
  truncated?: boolean;
}

/** How many issues per input the JSON and JUnit reports keep: memory stays flat however broken an input is. */
export const MAX_KEPT_ISSUES = 1000;

/** The values --reporter takes. */
export const REPORTERS: readonly ValidateReporter[] = ['text', 'json', 'junit'];

/**
 * An issue as a text line: `file:line: pointer: message (Type) (got value)`, inside streams `file:line: event N: …`;
 * `[rule]` in place of `(Type)` for a protocol rule. The offending value comes last, where the eye finds it.
 */
export function formatIssue(label: string, i: InputIssue): string {
  const where =
    i.line === undefined ? label : `${label}:${i.line}${i.column === undefined ? '' : `:${i.column}`}`;
  const event = i.event === undefined ? '' : ` event ${i.event}:`;
  const pointer = i.pointer === '' ? (i.event === undefined ? '(root)' : '(event)') : i.pointer;
  const got = i.got === undefined ? '' : ` (got ${i.got})`;
  const why = i.rule ? ` [${i.rule}]` : i.type ? ` (${i.type})` : '';
  // File names and messages quote what the input holds: control characters must not reach the terminal raw.
  return printable(`${where}:${event} ${pointer}: ${i.message}${why}${got}`);
}

/** The counts of a run: its files, and for streams (which have items) their items. */
export interface ValidateSummary {
  files: number;
  valid: number;
  invalid: number;
  /** Items read from the stream inputs; only when there are some. */
  items?: number;
  /** Of those, the items with at least one issue. */
  invalidItems?: number;
}

/** Counts the results: files, and the items of the streams among them. */
export function summarize(results: readonly InputResult[]): ValidateSummary {
  const invalid = results.filter((r) => !r.valid).length;
  const summary: ValidateSummary = { files: results.length, valid: results.length - invalid, invalid };
  const streams = results.filter((r) => r.items !== undefined);
  if (streams.length === 0) return summary;
  return {
    ...summary,
    items: streams.reduce((n, r) => n + (r.items ?? 0), 0),
    invalidItems: streams.reduce((n, r) => n + (r.invalidItems ?? 0), 0),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The summary line. Documents count as files (`1 valid, 2 invalid`); streams count by item (`3 of 40 items invalid
 * in 1 file`), with the streams that are invalid though none of their items is (a rule of the whole stream, a stream
 * that could not be read or typed). A run of both says which count is which.
 */
export function summaryLine(results: readonly InputResult[], protocol: string): string {
  const documents = results.filter((r) => r.items === undefined);
  const streams = results.filter((r) => r.items !== undefined);
  const mixed = documents.length > 0 && streams.length > 0;
  const parts: string[] = [];
  if (documents.length > 0 || streams.length === 0) {
    const bad = documents.filter((r) => !r.valid).length;
    parts.push(
      `${documents.length - bad} valid, ${bad} invalid${mixed ? (documents.length === 1 ? ' document' : ' documents') : ''}`,
    );
  }
  if (streams.length > 0) {
    const items = streams.reduce((n, r) => n + (r.items ?? 0), 0);
    const bad = streams.reduce((n, r) => n + (r.invalidItems ?? 0), 0);
    const noun = mixed ? 'stream' : 'file';
    const whole = streams.filter((r) => !r.valid && !r.invalidItems).length;
    parts.push(
      `${bad} of ${plural(items, 'item')} invalid in ${plural(streams.length, noun)}` +
        (whole > 0 ? `; ${plural(whole, noun)} invalid as a whole` : ''),
    );
  }
  return `${parts.join('; ')} (${protocol})`;
}

/** JUnit XML: one testcase per input, its issues in the failure. */
export function junit(protocol: ProtocolVersion, results: readonly InputResult[], invalid: number): string {
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
