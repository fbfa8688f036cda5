// Following `$ref`s during the walk. A type's name is not on the wire: where a field that was written out now names a
// type (`_meta: {type: object}` → `_meta: RequestMetaObject`), or the other way round, what matters is what the type
// allows, so the type's schema is put in the reference's place and compared member by member with what the other side
// allows there. Where a union meets a reference to one of its branches (or to a union), the reference is read as a
// union of one branch, so the branches gained and lost are reported. Two references to types that are neither unions
// are left to the `$ref` handler (`ref-changed`), as are references a side cannot resolve.
import { isRecord, resolveLocalPointer } from '../../util/json.js';
import type { DiffSide } from '../diff-types.js';
import { ANNOTATIONS } from './other-keywords.js';
import { refTypeName } from './ref-name.js';

/** A reference resolved among one side's types: the type's name (its file is where `pointer` points), the schema. */
export interface ResolvedRef {
  type: string;
  schema: unknown;
  /** Where the schema is in its type's file. */
  pointer: string;
}

/** Finds what a `$ref` names among one side's types. */
export type TypeLookup = (ref: string) => ResolvedRef | undefined;

/** The lookup of a side's types, by the name a reference gives (a fragment of a type, too). */
export function typeLookup(types: DiffSide['types']): TypeLookup {
  return (ref) => {
    const name = refTypeName(ref);
    if (name === undefined) return undefined;
    const hash = name.indexOf('#');
    const typeName = hash < 0 ? name : name.slice(0, hash);
    const fragment = hash < 0 ? '' : name.slice(hash + 1);
    const t = types.get(typeName);
    if (!t) return undefined;
    const schema = fragment ? resolveLocalPointer(t.value, fragment) : t.value;
    return schema === undefined ? undefined : { type: typeName, schema, pointer: `${t.at}${fragment}` };
  };
}

// Keywords that say nothing of the values a type takes, dropped from a type put in a reference's place: the
// reference's own description is the one compared with the other side's.
const TYPE_ANNOTATIONS = [
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'description',
  'examples',
  'deprecated',
];

/** One pair of nodes with a reference followed on one side or both, and where each side's pointer now points. */
export interface Expansion {
  o: unknown;
  n: unknown;
  po?: string;
  pn?: string;
  /** The type whose file an expanded side's pointers are in. */
  inOld?: string;
  inNew?: string;
  /** The types followed, for the change messages (`in RequestMetaObject`, `was a RequestParams`, `in A → B`). */
  note?: string;
  /** The references followed at this place, these ones included. */
  seen: Set<string>;
  /**
   * A reference read as a union of one branch: its side, and the union's keyword. That union is not written
   * anywhere, so pointers into it (`…/anyOf/0`) are pointers to the reference itself.
   */
  wrapped?: { side: 'old' | 'new'; keyword: 'anyOf' | 'oneOf' };
}

/**
 * The pair to compare instead of `o` and `n` when a reference should be followed (see the file's head), or undefined
 * when the pair is compared as it is. `seen` holds the references already followed at this place of the message, so
 * a chain of aliases ends.
 */
export function expandPair(
  o: unknown,
  n: unknown,
  types: Record<'old' | 'new', TypeLookup>,
  before: ReadonlySet<string>,
): Expansion | undefined {
  const x = expand(o, n, types, new Set(before));
  // What describes the two nodes is compared where they are written, before the reference is followed.
  return x && { ...x, o: withoutAnnotations(x.o), n: withoutAnnotations(x.n) };
}

function expand(
  o: unknown,
  n: unknown,
  types: Record<'old' | 'new', TypeLookup>,
  seen: Set<string>,
): Expansion | undefined {
  const ro = refOf(o);
  const rn = refOf(n);
  if (ro === undefined && rn === undefined) return undefined;
  if (ro !== undefined && rn !== undefined) {
    if (refTypeName(ro) === refTypeName(rn)) return undefined; // the type itself is compared on its own
    // Two types: followed only where a union meets a union of the same kind, or a type that is none, so that its
    // branches meet the other's (an `anyOf` and a `oneOf` stay two references: their branches do not compare).
    const ko = unionOf(types.old(ro)?.schema);
    const kn = unionOf(types.new(rn)?.schema);
    if (ko && kn && ko !== kn) return undefined;
    const to = ko ? follow(o, 'old', types, seen) : undefined;
    const tn = kn ? follow(n, 'new', types, seen) : undefined;
    if (!to && !tn) return undefined;
    return joined(to, tn, o, n, seen);
  }
  const which: 'old' | 'new' = ro !== undefined ? 'old' : 'new';
  const [mine, other] = which === 'old' ? [o, n] : [n, o];
  const keyword = isRecord(other) ? unionOf(other) : undefined;
  const ref = ro ?? rn ?? '';
  const target = types[which](ref);
  if (!target || seen.has(`${which}:${ref}`)) return undefined;
  if (
    keyword &&
    unionOf(target.schema) !== keyword &&
    Object.keys(annotationsOf(mine)).length + 1 === size(mine)
  ) {
    // A union on the other side: the reference is a union of one branch.
    const wrapped = { ...annotationsOf(mine), [keyword]: [{ $ref: ref }] };
    const union = { side: which, keyword };
    return which === 'old'
      ? { o: wrapped, n, seen, wrapped: union }
      : { o, n: wrapped, seen, wrapped: union };
  }
  const f = follow(mine, which, types, seen);
  if (!f) return undefined;
  return which === 'old' ? joined(f, undefined, o, n, seen) : joined(undefined, f, o, n, seen);
}

interface Followed {
  schema: unknown;
  pointer: string;
  type: string;
}

/** A reference node with its type put in its place (the node's other keywords kept beside the type's). */
function follow(
  node: unknown,
  which: 'old' | 'new',
  types: Record<'old' | 'new', TypeLookup>,
  seen: Set<string>,
): Followed | undefined {
  const ref = refOf(node);
  if (ref === undefined || !isRecord(node) || seen.has(`${which}:${ref}`)) return undefined;
  const target = types[which](ref);
  if (!target) return undefined;
  seen.add(`${which}:${ref}`);
  const { $ref: _ref, ...siblings } = node;
  if (!isRecord(target.schema)) {
    // `true` or `false` in a reference's place; keywords beside it would be an intersection the walk cannot write.
    return Object.keys(siblings).every((k) => TYPE_ANNOTATIONS.includes(k))
      ? { schema: target.schema, pointer: target.pointer, type: target.type }
      : undefined;
  }
  const body = Object.fromEntries(
    Object.entries(target.schema).filter(([k]) => !TYPE_ANNOTATIONS.includes(k)),
  );
  // A keyword on both the reference and its type would be an intersection: compared as a reference instead.
  if (Object.keys(siblings).some((k) => k in body && !isAnnotation(k))) return undefined;
  return { schema: { ...body, ...siblings }, pointer: target.pointer, type: target.type };
}

function joined(
  to: Followed | undefined,
  tn: Followed | undefined,
  o: unknown,
  n: unknown,
  seen: Set<string>,
): Expansion {
  return {
    seen,
    o: to ? to.schema : o,
    n: tn ? tn.schema : n,
    ...(to ? { po: to.pointer, inOld: to.type } : {}),
    ...(tn ? { pn: tn.pointer, inNew: tn.type } : {}),
    note: to && tn ? `in ${to.type} → ${tn.type}` : tn ? `in ${tn.type}` : to ? `was a ${to.type}` : '',
  };
}

function refOf(node: unknown): string | undefined {
  return isRecord(node) && typeof node.$ref === 'string' ? node.$ref : undefined;
}

/** The union keyword of a node that is a union (and no reference), if any. */
function unionOf(node: unknown): 'anyOf' | 'oneOf' | undefined {
  if (!isRecord(node) || node.$ref !== undefined) return undefined;
  return Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : undefined;
}

function withoutAnnotations(node: unknown): unknown {
  if (!isRecord(node)) return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => !isAnnotation(k)));
}

function isAnnotation(key: string): boolean {
  return ANNOTATIONS.has(key) || TYPE_ANNOTATIONS.includes(key) || key.startsWith('x-');
}

function size(node: unknown): number {
  return isRecord(node) ? Object.keys(node).length : 0;
}

function annotationsOf(node: unknown): Record<string, unknown> {
  if (!isRecord(node)) return {};
  return Object.fromEntries(Object.entries(node).filter(([k]) => TYPE_ANNOTATIONS.includes(k)));
}
