// `pnpm update-diff-reports [--check]`: a DECISIONS.md may hold the report of a diff between two versions, between
// `<!-- agentproto diff <old> <new> -->` and `<!-- /agentproto diff -->`. This rewrites each such report from the
// schemas as they are; with --check it writes nothing and exits 1 when one is stale (test/schemas/diff-reports.test.ts
// runs the same check in `pnpm test`).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@agentproto/cli';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OPEN = '<!-- agentproto diff ';
const CLOSE = '<!-- /agentproto diff -->';

/** The embedded reports of a file: each opening line's sides, and where its text starts and ends. */
function sections(text: string): Array<{ old: string; new: string; start: number; end: number }> {
  const out = [];
  // Line by line, not by one regex over the whole file: no backtracking, whatever the file holds.
  for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
    const eol = text.indexOf('\n', at);
    const close = text.indexOf(`\n${CLOSE}`, eol);
    if (eol < 0 || close < 0) break;
    const [before = '', after = '', end] = text.slice(at + OPEN.length, eol).split(' ');
    if (end !== '-->') continue;
    out.push({ old: before, new: after, start: eol + 1, end: close });
  }
  return out;
}

/** One report embedded in a DECISIONS file: where, what it says, and what the schemas say now. */
export interface DiffSection {
  file: string;
  old: string;
  new: string;
  written: string;
  current: string;
}

/** Every embedded report of every `schemas/<protocol>/DECISIONS.md`, with its text as committed and as it is now. */
export async function diffSections(root = ROOT): Promise<DiffSection[]> {
  const out: DiffSection[] = [];
  for (const protocol of readdirSync(path.join(root, 'schemas')).sort()) {
    const file = path.join(root, 'schemas', protocol, 'DECISIONS.md');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const section of sections(text)) {
      const { old: before, new: after } = section;
      const written = text.slice(section.start, section.end);
      const lines: string[] = [];
      const code = await runCli(['diff', before, after, '--reporter', 'markdown'], {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
        stdin: async function* () {},
      });
      if (code !== 0) throw new Error(`agentproto diff ${before} ${after} failed:\n${lines.join('\n')}`);
      out.push({
        file: path.relative(root, file),
        old: before,
        new: after,
        written,
        current: lines.join('\n'),
      });
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const check = process.argv.includes('--check');
  const stale = (await diffSections()).filter((s) => s.written !== s.current);
  for (const s of stale) {
    if (check) {
      console.error(`stale: the ${s.old} → ${s.new} report in ${s.file}`);
      continue;
    }
    const file = path.join(ROOT, s.file);
    const text = readFileSync(file, 'utf8');
    const found = sections(text).find((x) => x.old === s.old && x.new === s.new);
    if (found) writeFileSync(file, `${text.slice(0, found.start)}${s.current}${text.slice(found.end)}`);
    console.log(`wrote the ${s.old} → ${s.new} report in ${s.file}`);
  }
  if (check && stale.length > 0) {
    console.error('run `pnpm update-diff-reports` and commit the result');
    process.exitCode = 1;
  }
}
