// Composition: `anyOf`, `oneOf` and `allOf`. Branches are matched across versions by what they are (the type they
// name, their tag, their type) rather than by position, so a reordered union is no change and a new branch is one.
import { isRecord } from '../../util/json.js';
import type { Here } from './handler.js';
import { equal, short } from './json-values.js';
import { setFrom } from './mutations.js';
import { refTypeName } from './ref-name.js';

/** The key a union's branch is matched by across versions: the type it names, else its tag, else its position. */
function branchKey(branch: unknown, index: number): string {
  if (!isRecord(branch)) return `#${index}`;
  const ref = refTypeName(branch.$ref);
  if (ref) return `ref:${ref}`;
  if ('const' in branch) return `const:${JSON.stringify(branch.const)}`;
  if (isRecord(branch.properties))
    for (const [name, p] of Object.entries(branch.properties))
      if (isRecord(p) && 'const' in p) return `tag:${name}=${JSON.stringify(p.const)}`;
  if (typeof branch.type === 'string' && !isRecord(branch.properties) && !('items' in branch))
    return `type:${branch.type}`;
  return `#${index}`;
}

/** The keyword's value when it is an array (a list of branches), else undefined. */
function arrayAt(node: Record<string, unknown>, keyword: string): unknown[] | undefined {
  const value = node[keyword];
  return Array.isArray(value) ? value : undefined;
}

/** Compares the branches of a union (`anyOf` or `oneOf`): each added, removed, replaced or walked into. */
export function branches(here: Here, keyword: 'anyOf' | 'oneOf'): void {
  const { o, n, po, pn, add } = here;
  const before = arrayAt(o, keyword);
  const after = arrayAt(n, keyword);
  if (equal(before, after)) return;
  if (!before || !after) {
    add(
      `${keyword === 'anyOf' ? 'any-of' : 'one-of'}-${after ? 'added' : 'removed'}`,
      `\`${keyword}\` ${after ? 'added' : 'removed'}`,
      after ? 'senders' : 'receivers',
      [],
      {
        o: before ? `${po}/${keyword}` : po,
        n: after ? `${pn}/${keyword}` : pn,
      },
    );
    return;
  }
  const keyed = (xs: unknown[]) => new Map(xs.map((x, i) => [branchKey(x, i), i]));
  const bk = keyed(before);
  const ak = keyed(after);
  const lone = (mine: Map<string, number>, theirs: Map<string, number>) =>
    [...mine].filter(([k]) => !theirs.has(k));
  const gone = lone(bk, ak);
  const come = lone(ak, bk);
  const [replaced] = gone;
  const [replacing] = come;
  if (replaced && replacing && gone.length === 1 && come.length === 1) {
    // One branch replaced by another (`string` by `Role`): the same place, compared as such.
    const [[oldKey, j], [newKey, i]] = [replaced, replacing];
    bk.delete(oldKey);
    ak.delete(newKey);
    here.deeper(before[j], after[i], `${po}/${keyword}/${j}`, `${pn}/${keyword}/${i}`);
  }
  for (const [key, i] of ak) {
    const j = bk.get(key);
    const branch = after[i];
    if (j === undefined) {
      add(
        'branch-added',
        `takes a new kind of value (${describeBranch(branch)})`,
        'receivers',
        [setFrom('new', branch)],
        {
          o: `${po}/${keyword}`,
          n: `${pn}/${keyword}/${i}`,
        },
      );
      continue;
    }
    here.deeper(before[j], branch, `${po}/${keyword}/${j}`, `${pn}/${keyword}/${i}`);
  }
  for (const [key, j] of bk)
    if (!ak.has(key))
      add(
        'branch-removed',
        `no longer takes ${describeBranch(before[j])}`,
        'senders',
        [setFrom('old', before[j])],
        {
          o: `${po}/${keyword}/${j}`,
          n: `${pn}/${keyword}`,
        },
      );
}

/** Compares the `allOf` members of two nodes: each added or removed, and each both have, walked at the same place. */
export function allOf(here: Here): void {
  const { o, n, po, pn, at, add } = here;
  const before = Array.isArray(o.allOf) ? o.allOf : [];
  const after = Array.isArray(n.allOf) ? n.allOf : [];
  if (equal(before, after)) return;
  const bk = new Map(before.map((x, i) => [branchKey(x, i), i]));
  const ak = new Map(after.map((x, i) => [branchKey(x, i), i]));
  for (const [key, i] of ak) {
    const j = bk.get(key);
    if (j === undefined)
      add('all-of-added', `must now also match ${describeBranch(after[i])}`, 'senders', [], {
        o: po,
        n: `${pn}/allOf/${i}`,
      });
    else
      here.deeper(before[j], after[i], `${po}/allOf/${j}`, `${pn}/allOf/${i}`, undefined, {
        old: at.old,
        new: at.new,
      });
  }
  for (const [key, j] of bk)
    if (!ak.has(key))
      add('all-of-removed', `need no longer match ${describeBranch(before[j])}`, 'receivers', [], {
        o: `${po}/allOf/${j}`,
        n: pn,
      });
}

function describeBranch(branch: unknown): string {
  if (!isRecord(branch)) return short(branch);
  const ref = refTypeName(branch.$ref);
  if (ref) return ref;
  const key = branchKey(branch, 0);
  return key.startsWith('#') ? short(branch) : key.replace(/^(type|const|tag):/, '');
}
