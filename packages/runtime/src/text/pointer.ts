// JSON pointers (RFC 6901), one definition for the whole project: every diagnostic, validation issue and stream issue
// names where it is with these. No dependencies, so the lightest entry points can use it.

/** Escapes one reference token of a JSON pointer (RFC 6901 §3: `~` as `~0`, `/` as `~1`). */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  // Most tokens (member names, indexes) have neither character: they are their own escape, with no new string.
  return text.includes('~') || text.includes('/') ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text;
}

/** Unescapes one reference token of a JSON pointer (RFC 6901 §4: `~1` first, then `~0`). */
export function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Splits a JSON pointer (RFC 6901) into its unescaped reference tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/** Joins reference tokens into a JSON pointer (`['a', 'b/c']` → `/a/b~1c`; none → `''`, the whole document). */
export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}
