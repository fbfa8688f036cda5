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

/** The values --reporter takes. */
export const REPORTERS: readonly ValidateReporter[] = ['text', 'json', 'junit'];

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
