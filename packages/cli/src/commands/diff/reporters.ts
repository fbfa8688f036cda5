// How `agentproto diff` writes its report: text for a terminal or a CI log, JSON (DiffReport.schema.json) for
// programs, and markdown for a pull-request comment or a DECISIONS file. Text and markdown open with the summary
// (how many changes break whom) and show witnesses as a reader needs them: the name the differ makes up for a property
// no schema names is shown as `*`; the JSON report keeps each witness exactly as the validators judged it.
import {
  type Change,
  type ChangeSite,
  type DiffReport,
  witnessShown,
  witnessText,
} from '@agentproto/codegen';
import { type Paint, plain } from '../../colors.js';

/** The reporters `--reporter` takes. */
export const DIFF_REPORTERS = ['text', 'json', 'markdown'] as const;
/** A reporter `--reporter` names. */
export type DiffReporter = (typeof DIFF_REPORTERS)[number];

const WITNESS_WIDTH = 160;

/** How a report is rendered beyond its reporter. */
export interface RenderOptions {
  /** List only the changes that break someone; the summary still counts every change and says how many are left out. */
  breakingOnly?: boolean;
}

/**
 * One line of what a report holds: how many changes, and whom they break, each change counted once (`2 break both`
 * are not also among the receivers' and the senders'), how many stand unproven, and what `--breaking-only` left out.
 */
export function summaryLine(report: DiffReport, options: RenderOptions = {}): string {
  const { changes, receivers, senders, none, unproven } = report.summary;
  const head = `${report.old} → ${report.new}: ${changes} change${changes === 1 ? '' : 's'}`;
  if (changes === 0) return head;
  // The report's summary counts a change that breaks both parties under each of them.
  const both = receivers + senders + none - changes;
  const count = (n: number, whom: string) => `${n} ${n === 1 ? 'breaks' : 'break'} ${whom}`;
  const parties = [
    count(receivers - both, 'receivers'),
    count(senders - both, 'senders'),
    count(both, 'both'),
    count(none, 'no one'),
  ].join(', ');
  const unprovenPart = unproven > 0 ? `; ${unproven} without a witness` : '';
  const left =
    options.breakingOnly && none > 0
      ? `; ${none === 1 ? 'the one that breaks no one is' : `the ${none} that break no one are`} not listed (--breaking-only)`
      : '';
  return `${head}; ${parties}${unprovenPart}${left}`;
}

/** Renders a report. */
export function renderDiff(
  report: DiffReport,
  reporter: DiffReporter,
  paint: Paint = plain,
  options: RenderOptions = {},
): string {
  if (reporter === 'json') {
    if (!options.breakingOnly) return JSON.stringify(report, null, 2);
    const { old, new: next, summary } = report;
    return JSON.stringify(
      { old, new: next, summary, breakingOnly: true, changes: report.changes.filter(breaking) },
      null,
      2,
    );
  }
  return reporter === 'markdown' ? markdown(report, options) : text(report, paint, options);
}

function where(site: ChangeSite | undefined): string {
  if (!site) return '—';
  return `${site.file}${site.line === undefined ? '' : `:${site.line}`} ${site.pointer || '(root)'}`;
}

/** A witness message on one line, the made-up property name shown as `*`, cut to WITNESS_WIDTH. */
function shortJson(value: unknown): string {
  const s = JSON.stringify(witnessShown(value)) ?? 'undefined';
  return s.length > WITNESS_WIDTH ? `${s.slice(0, WITNESS_WIDTH - 1)}…` : s;
}

const breaking = (c: Change) => c.breaks !== 'none';

function text(report: DiffReport, paint: Paint, options: RenderOptions): string {
  const summary = summaryLine(report, options);
  const lines: string[] = [summary];
  const red = (s: string) => paint('red', s);
  const dim = (s: string) => paint('dim', s);
  const listed = report.changes.filter((c) => breaking(c) || !options.breakingOnly);
  if (listed.length === 0) return summary;
  lines.push('');
  for (const c of report.changes.filter(breaking)) {
    lines.push(
      `${red(`breaks ${c.breaks}`)}${c.proven ? '' : c.undecided ? ' (witness undecided)' : ' (no witness)'}  ${c.subject}: ${c.message}  ${dim(`[${c.rule}]`)}`,
    );
    lines.push(`  old: ${where(c.old)}`);
    lines.push(`  new: ${where(c.new)}`);
    if (c.undecided) lines.push(`  witness undecided: ${c.undecided}`);
    for (const w of c.witnesses)
      lines.push(
        `  witness (${w.breaks}): ${shortJson(w.message)}`,
        `    ${w.breaks === 'receivers' ? 'old' : 'new'} rejects it: ${witnessText(w.rejection)}`,
      );
  }
  const quiet = options.breakingOnly ? [] : report.changes.filter((c) => !breaking(c));
  if (quiet.length > 0) {
    lines.push(dim(`breaks no one (${quiet.length}):`));
    for (const c of quiet) lines.push(dim(`  ${c.subject}: ${c.message}  [${c.rule}]`));
  }
  // A long report ends with its summary too, where a terminal leaves the reader.
  lines.push('', summary);
  return lines.join('\n');
}

/** Inline code that survives any text, backticks included. */
function code(s: string): string {
  return s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``;
}

function siteCode(site: ChangeSite | undefined): string {
  return site
    ? `${code(`${site.file}${site.line === undefined ? '' : `:${site.line}`}`)} ${code(site.pointer || '(root)')}`
    : 'none';
}

// Lists, not tables: a pull-request comment reads them as well, and a formatter leaves them as written, so a report
// kept in a DECISIONS file stays byte-for-byte what the command prints.
function markdown(report: DiffReport, options: RenderOptions): string {
  const lines = [`**${summaryLine(report, options)}**`, ''];
  for (const c of report.changes.filter(breaking)) {
    lines.push(
      `- **breaks ${c.breaks}**${c.proven ? '' : c.undecided ? ' (witness undecided)' : ' (no witness)'}: ${c.subject}: ${c.message} (${code(c.rule)})`,
    );
    lines.push(`  - old: ${siteCode(c.old)}; new: ${siteCode(c.new)}`);
    if (c.undecided) lines.push(`  - witness undecided: ${c.undecided}`);
    for (const w of c.witnesses)
      lines.push(
        `  - witness: ${code(shortJson(w.message))}; ${w.breaks === 'receivers' ? 'old' : 'new'} rejects it: ${witnessText(w.rejection)}`,
      );
  }
  const quiet = options.breakingOnly ? [] : report.changes.filter((c) => !breaking(c));
  if (quiet.length > 0) {
    lines.push(
      '',
      `<details><summary>${quiet.length} change${quiet.length === 1 ? '' : 's'} that break no one</summary>`,
      '',
    );
    for (const c of quiet) lines.push(`- ${c.subject}: ${c.message} (${code(c.rule)})`);
    lines.push('', '</details>');
  }
  return lines.join('\n');
}
