// The claim tree of an object type's rules (the paths they read or write, as the runtime builds it), and the loop
// that copies every property no rule claims: claimed whole, a property is skipped; reached into, it is copied without
// what the rules take.
import { type Code, joinCode, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';
import { writePath } from './paths.js';

/** The paths rules read or write, as a tree (`true` where a whole property is claimed). */
export interface Claimed {
  [key: string]: Claimed | true;
}

/** The claim tree of some paths, as the runtime builds it: a path inside one already claimed whole adds nothing. */
export function claim(paths: ReadonlyArray<readonly string[]>): Claimed {
  const root: Claimed = {};
  for (const path of paths) {
    let at = root;
    for (const [i, k] of path.entries()) {
      if (i === path.length - 1) {
        at[k] = true;
        break;
      }
      const next = Object.hasOwn(at, k) ? at[k] : undefined;
      if (next === true) break;
      if (next === undefined) {
        const made: Claimed = {};
        at[k] = made;
        at = made;
      } else at = next;
    }
  }
  return root;
}

/**
 * The loop that copies every property of `v` no rule claims into `out`, in `v`'s order: a property claimed whole
 * is skipped, one a rule reaches into is copied without what the rule takes (an empty object stays, empty).
 */
export function emitCopyRest(cx: Emitter, claimed: Claimed): Code {
  const whole = Object.keys(claimed).filter((k) => claimed[k] === true);
  const inner = Object.entries(claimed).flatMap(([k, c]) => (c === true ? [] : [[k, c] as const]));
  const cases = [
    ...(whole.length > 0
      ? [
          ts`      ${joinCode(
            whole.map((k) => ts`case ${str(k)}:`),
            ' ',
          )}\n        continue;\n`,
        ]
      : []),
    ...inner.map(([k, c]) => {
      const tree = cx.constant(c, ts`Claimed`);
      return ts`      case ${str(k)}: {
        const x = v[k];
        if (!isObject(x)) break;
        if (Object.keys(x).length === 0) ${writePath(cx, ts`out`, [k], ts`{}`)}
        else copyRest(x, ${tree}, out, [${str(k)}]);
        continue;
      }
`;
    }),
  ];
  const skip =
    cases.length === 0
      ? ts``
      : ts`    switch (k) {
${cases}    }
`;
  return ts`  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
${skip}    if (k === '__proto__') define(out, k, v[k]);
    else out[k] = v[k];
  }
`;
}
