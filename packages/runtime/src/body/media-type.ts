/** A Content-Type header taken apart: the media type, lower-cased, and its parameters (names lower-cased). */
export interface MediaType {
  type: string;
  params: Record<string, string>;
}

/**
 * Reads a Content-Type header (RFC 9110 §8.3.1). Parameter values may be quoted; neither the charsets nor the
 * multipart boundaries this runtime reads may hold a `;` (RFC 2046 §5.1.1), so splitting at `;` is exact for them.
 */
export function parseMediaType(header: string): Readonly<MediaType> {
  // Clients send the same few headers again and again: each is parsed once (a bounded cache; the results are frozen).
  const known = parsed.get(header);
  if (known) return known;
  const media = parse(header);
  if (parsed.size >= 64) parsed.clear();
  parsed.set(header, media);
  return media;
}

const parsed = new Map<string, Readonly<MediaType>>();

function parse(header: string): Readonly<MediaType> {
  const [type = '', ...rest] = header.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name !== '' && !Object.hasOwn(params, name)) params[name] = value;
  }
  return Object.freeze({ type: type.trim().toLowerCase(), params: Object.freeze(params) });
}

/** Whether a charset parameter names UTF-8 (or is absent, which for JSON and YAML means UTF-8). */
export function isUtf8Charset(charset: string | undefined): boolean {
  if (charset === undefined) return true;
  const name = charset.trim().toLowerCase();
  return name === 'utf-8' || name === 'utf8';
}

/**
 * How many parts a multipart body holds, counted by its delimiters (RFC 2046 §5.1.1: a boundary never occurs inside
 * a part), stopping once the count passes `atMost`. One linear scan, before the body is parsed.
 */
export function countMultipartParts(bytes: Uint8Array, boundary: string, atMost: number): number {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  let delimiters = 0;
  for (
    let at = haystack.indexOf(delimiter);
    at !== -1;
    at = haystack.indexOf(delimiter, at + delimiter.length)
  ) {
    // The close delimiter (`--boundary--`) ends the body; the parts are the delimiters before it.
    if (++delimiters > atMost + 1) break;
  }
  return Math.max(0, delimiters - 1);
}
