// The offending value an issue names, as `validate` shows it at the end of the line: JSON on one line, cut
// to fit (`/role: must be one of "ROLE_USER", "ROLE_AGENT" (Message) (got "robot")`). The value is serialized only as
// far as the cut, so an issue at the root of a large document costs no more than one at a leaf.
import { parsePointer } from '@agentproto/runtime/contract';

/** How many characters of the offending value an issue shows, the ellipsis included. */
export const GOT_WIDTH = 60;

const INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The value at `pointer` in `value` as one line of JSON of at most GOT_WIDTH characters, or undefined when nothing
 * is there (a property reported missing is not in the value).
 */
export function gotAt(value: unknown, pointer: string): string | undefined {
  let at: unknown = value;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(at)) {
      if (!INDEX.test(token)) return undefined;
      at = at[Number(token)];
    } else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) {
      at = Reflect.get(at, token);
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return clippedJson(at, GOT_WIDTH);
}

/** An issue's `got` field: the value at its pointer, or nothing when there is none there. */
export function got(value: unknown, pointer: string): { got?: string } {
  const text = gotAt(value, pointer);
  return text === undefined ? {} : { got: text };
}

/**
 * `JSON.stringify(value)` cut to `width` characters, the last of them `…` when it is cut. Serializing stops once the
 * text is past the width, and long strings are cut before they are escaped.
 */
export function clippedJson(value: unknown, width: number): string {
  const parts: string[] = [];
  let length = 0;
  // Each step says whether there is still room: false stops the walk.
  const put = (s: string) => {
    parts.push(s);
    length += s.length;
    return length <= width;
  };
  const str = (s: string) => put(JSON.stringify(s.length > width ? s.slice(0, width) : s));
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) {
      if (!put('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !put(',')) || !walk(v[i] ?? null)) return false;
      return put(']');
    }
    if (typeof v === 'object' && v !== null) {
      if (!put('{')) return false;
      let first = true;
      for (const key of Object.keys(v)) {
        const item: unknown = Reflect.get(v, key);
        if (item === undefined) continue;
        if ((!first && !put(',')) || !str(key) || !put(':') || !walk(item)) return false;
        first = false;
      }
      return put('}');
    }
    return put(JSON.stringify(v) ?? 'null');
  };
  walk(value);
  const text = parts.join('');
  if (text.length <= width) return text;
  let cut = text.slice(0, width - 1);
  // Half of a surrogate pair would print as a replacement character.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}
