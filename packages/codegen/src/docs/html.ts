// Building HTML without pasting raw text into it: the `html` tagged template escapes every interpolated value unless
// it is already `Html` (made by `html` itself or, for text we produced as markup, by `raw`). The same idea as ajv's
// `_` template for code: only values of the markup type go in as they are.

/** A piece of markup, safe to insert as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: markup, text (escaped), numbers, lists of these, or nothing. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or attribute value: `& < > " '` become entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Markup from a template: every interpolated value is escaped unless it is `Html`; arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Markup we made ourselves by other means (the Markdown renderer's output), trusted as is. */
export function raw(text: string): Html {
  return new Html(text);
}

/** Text whose `backticked` parts are code (the diff's messages are written so). */
export function withCode(text: string): Html {
  return html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}
