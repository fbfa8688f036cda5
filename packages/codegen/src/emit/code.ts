/**
 * Quoting helpers for the TypeScript we emit ourselves. Every name and string from a schema goes through one of
 * these; nothing from a schema is pasted into source unescaped.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal. */
export function str(value: string): string {
  return JSON.stringify(value);
}

/** A checked identifier: throws when a schema-provided name is not one. */
export function ident(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`"${name}" cannot be used as an identifier in generated code`);
  return name;
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function key(name: string): string {
  return IDENTIFIER.test(name) ? name : str(name);
}

/** A TSDoc comment of one or more lines, with comment terminators defused. */
export function doc(text: string, indent = ''): string {
  const lines = text.replaceAll('*/', '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** `createAgentTask` → `CreateAgentTask`. */
export function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
