/**
 * Why a header a handler set cannot be sent, or undefined when it can. Node.js refuses (and its adapters then answer
 * a plain-text 500) names that are not RFC 9110 tokens and values with characters outside tab, visible ASCII and
 * obs-text (0x80–0xFF): a control character, a line break, or any character above U+00FF.
 */
export function invalidHeader(name: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `header "${printable(name)}" has a value that is not a string`;
  if (name === '' || !isToken(name)) return `"${printable(name)}" is not a header name`;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 9 || (c >= 0x20 && c !== 0x7f && c <= 0xff)) continue;
    return `header "${name}" holds a character a header cannot carry (U+${c.toString(16).toUpperCase().padStart(4, '0')})`;
  }
  return undefined;
}

const TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

function isToken(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const ch = name.charAt(i);
    const c = ch.charCodeAt(0);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && !TOKEN_SYMBOLS.includes(ch)) return false;
  }
  return true;
}

/** A text with its control characters written as `\uXXXX`, safe to put in a message or on a terminal. */
export function printable(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c < 0x20 || (c >= 0x7f && c < 0xa0) ? `\\u${c.toString(16).padStart(4, '0')}` : text.charAt(i);
  }
  return out;
}

/**
 * A Content-Disposition value for a download (RFC 6266): `filename` holds an ASCII stand-in (other characters, quotes
 * and backslashes become `_`) for old clients, and `filename*` the real name, UTF-8 and percent-encoded (RFC 8187),
 * which clients prefer. Lone surrogates become U+FFFD first, since they have no UTF-8 form.
 */
export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  // sound: `toWellFormed` (ES2024) exists on every string in Node.js 20 and later; typed here so that our published
  // declarations do not ask users' compilers for the ES2024 library
  const name = (fileName as unknown as { toWellFormed(): string }).toWellFormed();
  let ascii = '';
  for (const ch of name) {
    // Code units do here what code points would: anything outside printable ASCII (a surrogate too) becomes `_`.
    const c = ch.charCodeAt(0);
    ascii += c >= 0x20 && c < 0x7f && ch !== '"' && ch !== '\\' ? ch : '_';
  }
  // RFC 8187 attr-char: letters, digits and !#$&+-.^_`|~; everything else is percent-encoded.
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A canonical decimal integer (`0`, `42`, `-7`; not `042`, ` 5`, `0x10`, `1e3` or `2abc`), as a number; undefined for
 * anything else or beyond the safe integers.
 */
export function parseDecimalInteger(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string' || !/^-?(?:0|[1-9]\d{0,15})$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && !Object.is(value, -0) ? value : undefined;
}
