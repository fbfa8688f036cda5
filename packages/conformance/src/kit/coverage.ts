// Requirements coverage: which checks test each requirement of a protocol version (its `requirements.yaml`), which
// requirements are excluded and why, and, after a run, how each requirement fared. `agentproto conformance
// --coverage` prints it; the JSON report carries it. A client's side is the same table over the version's
// `client-requirements.yaml` and the client scenarios' checks (`--client`).
import type { Requirement } from '@agentproto/runtime/contract';
import type { CheckDefinition, CheckResult, ProtocolBinding } from './types.js';

/**
 * Whose requirements: the agent's (`requirements.yaml`, the suite's checks) or the client's
 * (`client-requirements.yaml`, the client scenarios' checks).
 */
export type CoverageSide = 'server' | 'client';

/** The requirements of a side and the file they come from. */
function sideOf(
  binding: ProtocolBinding,
  side: CoverageSide,
): { requirements: readonly Requirement[]; file: string } {
  return side === 'client'
    ? { requirements: binding.clientRequirements ?? [], file: 'client-requirements.yaml' }
    : { requirements: binding.requirements ?? [], file: 'requirements.yaml' };
}

/** One requirement and what covers it. */
export interface CoverageRow {
  id: string;
  level: Requirement['level'];
  statement: string;
  source: Requirement['source'];
  ref: string;
  /** The checks that test it (none when excluded). */
  checks: string[];
  /** Why no check tests it. */
  excluded?: string;
  /**
   * After a run: `fail` if one of its checks failed (an expected failure included), else `pass` if one passed, else
   * `blocked` if one was blocked (the agent does not answer as the protocol), else `skip`; `not run` when none of its
   * checks ran (a level filter, or a check only `--fuzz` runs); `excluded`.
   */
  result?: 'pass' | 'fail' | 'skip' | 'blocked' | 'not run' | 'excluded';
}

/**
 * The coverage table of a version's requirements (the client's with `side: 'client'`) by a list of checks, with the
 * results of a run when given.
 */
export function coverageOf(
  binding: ProtocolBinding,
  checks: readonly CheckDefinition[],
  results?: readonly CheckResult[],
  side: CoverageSide = 'server',
): CoverageRow[] {
  return sideOf(binding, side).requirements.map((r) => {
    const covering = checks.filter((c) => c.covers.includes(r.id)).map((c) => c.id);
    const row: CoverageRow = {
      id: r.id,
      level: r.level,
      statement: r.statement,
      source: r.source,
      ref: r.ref,
      checks: covering,
      ...(r.excluded === undefined ? {} : { excluded: r.excluded }),
    };
    if (!results) return row;
    if (r.excluded !== undefined) return { ...row, result: 'excluded' };
    const mine = results.filter((x) => covering.includes(x.id));
    const result = mine.some((x) => x.status === 'fail')
      ? 'fail'
      : mine.some((x) => x.status === 'pass')
        ? 'pass'
        : mine.some((x) => x.status === 'blocked')
          ? 'blocked'
          : mine.length > 0
            ? 'skip'
            : 'not run';
    return { ...row, result };
  });
}

/**
 * What is wrong with how a suite's checks and a version's requirements (the client's with `side: 'client'`) meet: a
 * requirement neither covered nor excluded, one both covered and excluded, a check that covers nothing or names a
 * requirement that does not exist.
 */
export function coverageProblems(
  binding: ProtocolBinding,
  checks: readonly CheckDefinition[],
  side: CoverageSide = 'server',
): string[] {
  const problems: string[] = [];
  const name = `${binding.protocol}@${binding.version}`;
  const { requirements, file } = sideOf(binding, side);
  if (requirements.length === 0) problems.push(`${name} has no ${file}`);
  const ids = new Set(requirements.map((r) => r.id));
  for (const c of checks) {
    if (c.covers.length === 0) problems.push(`${name}: check ${c.id} covers no requirement`);
    for (const id of c.covers)
      if (!ids.has(id)) problems.push(`${name}: check ${c.id} covers "${id}", which ${file} does not list`);
  }
  for (const r of requirements) {
    const covered = checks.some((c) => c.covers.includes(r.id));
    if (!covered && r.excluded === undefined)
      problems.push(`${name}: requirement ${r.id} is covered by no check and not excluded`);
    if (covered && r.excluded !== undefined)
      problems.push(`${name}: requirement ${r.id} is covered by a check, yet excluded ("${r.excluded}")`);
  }
  return problems;
}
