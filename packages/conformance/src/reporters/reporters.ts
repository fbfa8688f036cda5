// The kit's reporters: text (a line per check), JSON (the report schema), JUnit XML and Markdown.
import { escapeXml } from '@agentproto/runtime/contract';
import type { CoverageRow } from '../kit/coverage.js';
import type { CheckResult, Report } from '../kit/types.js';

/** The report formats the kit writes. */
export type ReporterName = 'text' | 'json' | 'junit' | 'markdown';

/** How one result reads in text: status (PASS, FAIL, SKIP, BLOCK, XFAIL, STALE), level, id and message. */
export function resultLine(c: CheckResult): string {
  const status = c.staleExpectation
    ? 'STALE'
    : c.expectedFailure
      ? 'XFAIL'
      : c.status === 'blocked'
        ? 'BLOCK'
        : c.status.toUpperCase();
  return `${status.padEnd(5)} ${c.level.padEnd(6)} ${c.id}: ${c.message}`;
}

function summaryLine(r: Report): string {
  const s = r.summary;
  const extra = [
    s.expectedFailures > 0 ? `${s.expectedFailures} expected failures` : '',
    s.staleExpectations > 0 ? `${s.staleExpectations} stale expected failures` : '',
  ].filter(Boolean);
  const blocked = s.blocked > 0 ? `, ${s.blocked} blocked` : '';
  return `${r.protocol}@${r.version} at ${r.target}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${blocked}${extra.length > 0 ? `, ${extra.join(', ')}` : ''}; ${s.messagesValidated} messages validated`;
}

/** Renders a report in one of the formats. */
export function render(report: Report, reporter: ReporterName): string {
  switch (reporter) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return junit(report);
    case 'markdown':
      return markdown(report) + (report.coverage ? `\n${renderCoverage(report.coverage, 'markdown')}` : '');
    default:
      return `${report.checks.map(resultLine).join('\n')}\n${report.coverage ? renderCoverage(report.coverage, 'text') : ''}${summaryLine(report)}\n`;
  }
}

/**
 * JUnit XML: one testsuite for the run, one testcase per check (failures, skips and expected failures marked). JUnit
 * has no blocked outcome: a blocked check is a skipped testcase whose message says what blocked it, and the probe's
 * failure beside it says why.
 */
function junit(r: Report): string {
  const name = `agentproto conformance ${r.protocol}@${r.version}`;
  const cases = r.checks.map((c) => {
    const open = `    <testcase classname="${escapeXml(`${r.protocol}.${c.level}`)}" name="${escapeXml(c.id)}">`;
    const ref = `      <properties><property name="ref" value="${escapeXml(c.ref)}"/></properties>`;
    let inner = '';
    if (c.staleExpectation || (c.status === 'fail' && !c.expectedFailure))
      inner = `      <failure message="${escapeXml(c.message)}" type="${c.staleExpectation ? 'stale-expected-failure' : c.level}">${escapeXml(c.message)}</failure>`;
    else if (c.status === 'skip' || c.status === 'blocked' || c.expectedFailure)
      inner = `      <skipped message="${escapeXml(c.message)}"/>`;
    return [open, ref, inner, '    </testcase>'].filter(Boolean).join('\n');
  });
  const skipped = r.checks.filter(
    (c) => c.status === 'skip' || c.status === 'blocked' || c.expectedFailure,
  ).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(name)}" tests="${r.checks.length}" failures="${r.summary.failed}" skipped="${skipped}">`,
    `  <testsuite name="${escapeXml(name)}" tests="${r.checks.length}" failures="${r.summary.failed}" errors="0" skipped="${skipped}">`,
    `    <properties><property name="target" value="${escapeXml(r.target)}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function markdown(r: Report): string {
  const icon = (c: CheckResult) =>
    c.staleExpectation ? 'stale' : c.expectedFailure ? 'expected failure' : c.status;
  return [
    `# Conformance: ${r.protocol}@${r.version}`,
    '',
    summaryLine(r),
    '',
    '| check | level | result | message | ref |',
    '| --- | --- | --- | --- | --- |',
    ...r.checks.map((c) => `| \`${c.id}\` | ${c.level} | ${icon(c)} | ${cell(c.message)} | ${cell(c.ref)} |`),
    '',
  ].join('\n');
}

/**
 * The requirements coverage table: each requirement's level, id, result (after a run) and the checks that cover it,
 * or why it is excluded. Text is one line per requirement; Markdown a table with the statements.
 */
export function renderCoverage(rows: readonly CoverageRow[], format: 'text' | 'markdown'): string {
  const covered = rows.filter((r) => r.checks.length > 0).length;
  const head = `requirements: ${rows.length}, covered by checks ${covered}, excluded ${rows.length - covered}`;
  const by = (r: CoverageRow) => (r.excluded !== undefined ? `excluded: ${r.excluded}` : r.checks.join(', '));
  if (format === 'markdown')
    return [
      `## Requirements coverage`,
      '',
      head,
      '',
      '| requirement | level | statement | result | covered by | source |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| \`${r.id}\` | ${r.level} | ${cell(r.statement)} | ${r.result ?? ''} | ${cell(by(r))} | ${r.source}: ${cell(r.ref)} |`,
      ),
      '',
    ].join('\n');
  const width = Math.max(...rows.map((r) => r.id.length), 10);
  return `${[
    ...rows.map(
      (r) =>
        `${r.level.padEnd(6)} ${r.id.padEnd(width)} ${r.result ? `${r.result.toUpperCase().padEnd(8)} ` : ''}${by(r)}`,
    ),
    head,
  ].join('\n')}\n`;
}
