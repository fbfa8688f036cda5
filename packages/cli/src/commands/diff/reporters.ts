// How `agentproto diff` writes its report: text for a terminal or a CI log, JSON (DiffReport.schema.json) for
// programs, and markdown for a pull-request comment or a DECISIONS file.
import type { Change, ChangeSite, DiffReport } from '@agentproto/codegen';
import { type Paint, plain } from '../../colors.js';

/** The reporters `--reporter` takes. */
export const DIFF_REPORTERS = ['text', 'json', 'markdown'] as const;
/** A reporter `--reporter` names. */
export type DiffReporter = (typeof DIFF_REPORTERS)[number];

const WITNESS_WIDTH = 160;

/** One line of what a report holds: how many changes, whom they break, how many stand unproven. */
export function summaryLine(report: DiffReport): string {
  const { changes, receivers, senders, none, unproven } = report.summary;
  return `${report.old} → ${report.new}: ${changes} change${changes === 1 ? '' : 's'}; ${receivers} break receivers, ${senders} break senders, ${none} break no one${unproven > 0 ? `; ${unproven} without a witness` : ''}`;
}

/** Renders a report. */
export function renderDiff(report: DiffReport, reporter: DiffReporter, paint: Paint = plain): string {
  if (reporter === 'json') return JSON.stringify(report, null, 2);
  return reporter === 'markdown' ? markdown(report) : text(report, paint);
}

function where(site: ChangeSite | undefined): string {
  if (!site) return '—';
  return `${site.file}${site.line === undefined ? '' : `:${site.line}`} ${site.pointer || '(root)'}`;
}

function shortJson(value: unknown): string {
  const s = JSON.stringify(value) ?? 'undefined';
  return s.length > WITNESS_WIDTH ? `${s.slice(0, WITNESS_WIDTH - 1)}…` : s;
}

const breaking = (c: Change) => c.breaks !== 'none';

function text(report: DiffReport, paint: Paint): string {
  const lines: string[] = [];
  const red = (s: string) => paint('red', s);
  const dim = (s: string) => paint('dim', s);
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
        `    ${w.breaks === 'receivers' ? 'old' : 'new'} rejects it: ${w.rejection}`,
      );
  }
  const quiet = report.changes.filter((c) => !breaking(c));
  if (quiet.length > 0) {
    lines.push(dim(`breaks no one (${quiet.length}):`));
    for (const c of quiet) lines.push(dim(`  ${c.subject}: ${c.message}  [${c.rule}]`));
  }
  lines.push(summaryLine(report));
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
function markdown(report: DiffReport): string {
  const lines = [`**${summaryLine(report)}**`, ''];
  for (const c of report.changes.filter(breaking)) {
    lines.push(
      `- **breaks ${c.breaks}**${c.proven ? '' : c.undecided ? ' (witness undecided)' : ' (no witness)'}: ${c.subject}: ${c.message} (${code(c.rule)})`,
    );
    lines.push(`  - old: ${siteCode(c.old)}; new: ${siteCode(c.new)}`);
    if (c.undecided) lines.push(`  - witness undecided: ${c.undecided}`);
    for (const w of c.witnesses)
      lines.push(
        `  - witness: ${code(shortJson(w.message))}; ${w.breaks === 'receivers' ? 'old' : 'new'} rejects it: ${w.rejection}`,
      );
  }
  const quiet = report.changes.filter((c) => !breaking(c));
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
