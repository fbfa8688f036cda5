// Small helpers over JSON documents: type guards, every `$ref` with its pointer, pointer resolution, ref rewriting.
import { escapePointerToken, parsePointer } from '../diagnostics.js';

/** True for plain JSON objects (not arrays, not null). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Every `$ref` string in a JSON document, with the pointer of the object that holds it. */
export function collectRefs(value: unknown, pointer = ''): Array<{ pointer: string; ref: string }> {
  const out: Array<{ pointer: string; ref: string }> = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push(...collectRefs(item, `${pointer}/${i}`));
    });
  } else if (isRecord(value)) {
    if (typeof value.$ref === 'string') out.push({ pointer, ref: value.$ref });
    for (const [k, v] of Object.entries(value))
      out.push(...collectRefs(v, `${pointer}/${escapePointerToken(k)}`));
  }
  return out;
}

/** Follows a JSON pointer inside a document; undefined when it leads nowhere. */
export function resolveLocalPointer(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of parsePointer(decodeURIComponent(pointer))) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isRecord(node)) node = node[token];
    else return undefined;
  }
  return node;
}

/**
 * Returns a deep copy of a JSON value in which every reference is replaced by `rewrite(ref)`: each `$ref` string, and
 * each target of an OpenAPI `discriminator.mapping` (a reference too). The copy of an object is an object.
 */
export function mapRefs(
  value: Record<string, unknown>,
  rewrite: (ref: string) => string,
): Record<string, unknown>;
// Any other JSON value: an array gives an array, a scalar itself.
export function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown;
// The one body behind both signatures.
export function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, rewrite));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') out[k] = rewrite(v);
    else if (k === 'discriminator' && isRecord(v) && isRecord(v.mapping)) {
      const mapping = Object.entries(v.mapping).map(([tag, ref]) => [
        tag,
        typeof ref === 'string' ? rewrite(ref) : ref,
      ]);
      out[k] = { ...v, mapping: Object.fromEntries(mapping) };
    } else out[k] = mapRefs(v, rewrite);
  }
  return out;
}
