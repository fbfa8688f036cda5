// Plain JSON value helpers the schema walk compares and quotes with: deep equality, and the short forms a change's
// message shows. Its own file because every keyword family uses them and none of them owns them.
import { isRecord } from '../../util/json.js';

/** A list of values as a message shows them: each as JSON, comma-separated. */
export function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** A value as a message shows it: its JSON, cut to 60 characters. */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Deep equality of JSON values. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => equal(x, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && equal(a[k], b[k]));
}
