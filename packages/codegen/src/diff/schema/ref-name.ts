// The type name a `$ref` points at, however the side writes it (a schema file, a `$defs` or components pointer). Its
// own file because the walk, the surface differ and the witness resolver all match types across versions by it.

const SCHEMA_FILE = '.schema.json';

/** The type name a reference names (`Message.schema.json`, `#/components/schemas/Message`, an `$id`), if any. */
export function refTypeName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  // By hand rather than by one regex: a search for `.schema.json` anywhere in a string backtracks on long inputs.
  const hash = ref.indexOf('#');
  const base = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? '' : ref.slice(hash);
  if (base.endsWith(SCHEMA_FILE)) {
    const name = base.slice(base.lastIndexOf('/') + 1, -SCHEMA_FILE.length);
    if (name === '') return undefined;
    return fragment.length > 1 ? `${name}${fragment}` : name;
  }
  return /^#\/(?:\$defs|definitions|components\/schemas)\/([^/]+)$/.exec(ref)?.[1];
}
