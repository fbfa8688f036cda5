// The diff reports DECISIONS files embed (AgentScope's 0.1 → 1.1, say) say what the schemas say today.
import { describe, expect, it } from 'vitest';
import { diffSections } from '../../scripts/update-diff-reports.js';

describe('schemas > diff reports in DECISIONS', async () => {
  const sections = await diffSections();

  it('there is at least one: AgentScope 0.1 → 1.1', () => {
    expect(sections.map((s) => `${s.file}: ${s.old} ${s.new}`)).toContain(
      'schemas/agentscope/DECISIONS.md: agentscope@0.1 agentscope@1.1',
    );
  });

  it.each(sections.map((s) => [`${s.file} > ${s.old} → ${s.new}`, s] as const))(
    '%s is up to date',
    (_n, s) => {
      expect(s.written, 'stale: run `pnpm update-diff-reports` and commit the result').toBe(s.current);
    },
  );
});
