// What the surface differ hands on, and what its HTTP and JSON-RPC parts share: a finding (a change, with what its
// witnesses are checked against), the walk of a surface's schemas into findings, and the order keys are visited in.
import { isRecord } from '../../util/json.js';
import type { Witness } from '../diff-types.js';
import type { TypeLookup } from '../schema/expand.js';
import type { FoundChange } from '../schema/found-change.js';
import { refTypeName } from '../schema/ref-name.js';
import { schemaChanges } from '../schema-changes.js';
import type { Subject } from '../witness.js';

/** A change of a surface, with what its witnesses are checked against (or the witnesses a lookup already gives). */
export interface SurfaceFinding {
  found: FoundChange;
  document: 'openapi' | 'openrpc';
  subject?: Subject;
  witnesses?: Witness[];
}

/** One thing on both sides. */
export type Pair<T> = Record<'old' | 'new', T>;

/**
 * The list the surface's parts push their findings on, carrying the sides' types for the schema walks: every part
 * already hands the list down, so the walks get the types without each part passing them on.
 */
export type Findings = SurfaceFinding[] & { types?: Pair<TypeLookup> };

/** Walks two schemas of a surface; witnesses are checked against those schemas, on examples of the type they name. */
export function schemaFindings(
  out: Findings,
  document: 'openapi' | 'openrpc',
  name: string,
  area: FoundChange['area'],
  before: unknown,
  after: unknown,
  po: string,
  pn: string,
): void {
  for (const found of schemaChanges(name, area, before, after, po, pn, out.types))
    out.push({ found, document, subject: { name, schema: { old: before, new: after } } });
}

/** The type a surface schema is, when it is exactly a reference to one (so the type's examples are its bases). */
export function subjectType(schema: unknown): string | undefined {
  return isRecord(schema) && Object.keys(schema).length === 1 ? refTypeName(schema.$ref) : undefined;
}

/** The keys of both sides, once each and sorted: the order a surface's parts are compared and reported in. */
export function union<T>(a: Iterable<T>, b: Iterable<T>): T[] {
  return [...new Set([...a, ...b])].sort();
}
