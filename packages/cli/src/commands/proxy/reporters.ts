// What `agentproto proxy` reports while it runs: each invalid message once, as it passes (text: one line per issue;
// json: one JSON object per message, a line each, for a program to read as they come), and notes on what it could
// not check.
import { printable } from '@agentproto/runtime/contract';
import { plain } from '../../colors.js';
import type { Output } from '../../output.js';

/** Which way a message went: a request from the client, an answer from the agent, a stream item, a stream's end. */
export type Direction = 'request' | 'response' | 'event' | 'end';

/** One problem with a message: where, what was expected, which keyword or rule says so, and the value found. */
export interface ProxyIssue {
  pointer: string;
  message: string;
  rule: string;
  /** The offending value, as one line of JSON cut to fit; absent when nothing is there. */
  got?: string;
}

/** Where a report belongs: the exchange (1-based, in the order requests arrived), its request, and the direction. */
export interface ReportPlace {
  exchange: number;
  method: string;
  path: string;
  direction: Direction;
  /** For a stream item, its 1-based position. */
  item?: number;
}

/** A message that broke its schema or a protocol rule, with every issue it has. */
export interface InvalidMessage extends ReportPlace {
  kind: 'invalid';
  /** The type the message was checked as, when it has one. */
  type?: string;
  issues: ProxyIssue[];
}

/** Something the proxy did not check, or changed (a limit reached, a rewritten card). */
export interface ProxyNote extends ReportPlace {
  kind: 'note';
  message: string;
}

/** What the proxy tells as traffic passes: an invalid message, or a note. */
export type ProxyReport = InvalidMessage | ProxyNote;

/** How reports are written: text lines, or one JSON object per line. */
export type ProxyReporter = 'text' | 'json';

/** Writes each report as it comes. */
export function reportWriter(reporter: ProxyReporter, io: Output): (report: ProxyReport) => void {
  if (reporter === 'json') return (report) => io.out(JSON.stringify(report));
  const paint = io.paint ?? plain;
  return (report) => {
    const at = `#${report.exchange} ${report.method} ${printable(report.path)} ${report.direction}${report.item === undefined ? '' : ` ${report.item}`}`;
    if (report.kind === 'note') {
      io.out(`${paint('yellow', 'note')} ${at}: ${printable(report.message)}`);
      return;
    }
    const mark = paint('red', 'invalid');
    for (const issue of report.issues)
      io.out(
        `${mark} ${at}${report.type ? ` (${report.type})` : ''}: ${issue.pointer || '(root)'}: ${printable(issue.message)} [${issue.rule}]${issue.got === undefined ? '' : ` (got ${printable(issue.got)})`}`,
      );
  };
}
