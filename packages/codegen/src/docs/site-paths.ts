// Where each page of the docs site lives. Types at `<protocol>/<version>/types/<Type>.html`; the schema set under
// `schemas/`, at the paths the `$id`s name (`https://agentproto.dev/schemas/a2a/1.0/Task.schema.json` →
// `schemas/a2a/1.0/Task.schema.json`), so deploying the folder at the `$id` host makes every `$id` resolve.

/** The site path of each kind of page, and of a file of the schema set. */
export const sitePaths = {
  home: 'index.html',
  protocol: (p: string) => `${p}/index.html`,
  decisions: (p: string) => `${p}/decisions.html`,
  changes: (p: string, from: string, to: string) => `${p}/changes/${from}-to-${to}.html`,
  version: (p: string, v: string) => `${p}/${v}/index.html`,
  operations: (p: string, v: string) => `${p}/${v}/operations.html`,
  type: (p: string, v: string, t: string) => `${p}/${v}/types/${t}.html`,
  /** A file of the schema set. */
  schema: (file: string) => `schemas/${file}`,
};

/** An element id made of a name (operation ids, method names with `/`). */
export function anchor(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
