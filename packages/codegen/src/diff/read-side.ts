// Reads one side of a diff into the same shape whatever it is: a protocol version the load stage read, a folder of
// schemas (a source version folder, an exported one, or a user's own), or one bundle file whose `$defs` are the types.
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseJsonWithLocator, parseYamlWithLocator } from '@agentproto/runtime/locate';
import type { LoadedVersion } from '../load/load-protocols.js';
import { isRecord, mapRefs } from '../util/json.js';
import type { DiffSide, SideDocument } from './diff-types.js';

const SCHEMA_SUFFIX = '.schema.json';

// The base of the `$id` a type without one is given: a hierarchical URL, so `Other.schema.json` resolves beside it.
const LOCAL_BASE = 'https://diff.agentproto.invalid/';

// How deep a schema or example may nest (the document itself is level 1): far beyond any real schema, and well within
// what the differ's recursive walks and ajv's compiler take without overflowing the stack.
const MAX_DEPTH = 256;

/**
 * The runtime's check of a value's depth, loaded when a side is read from files. Only `agentproto diff` reads sides
 * so; a generator run reads them from loaded versions (sideFromVersion), and the runtime's main entry would bring
 * its HTTP server and client into that run: about a second of module loading for nothing.
 */
async function shapeCheck(): Promise<typeof import('@agentproto/runtime').findShapeProblem> {
  return (await import('@agentproto/runtime')).findShapeProblem;
}

/** A problem with a side: a path that is neither a folder of schemas nor a bundle, a file that does not parse. */
export class SideError extends Error {
  override readonly name = 'SideError';
}

/** The side a protocol version is (`agentscope@0.1`), from what the load stage read. */
export function sideFromVersion(v: LoadedVersion): DiffSide {
  const types: DiffSide['types'] = new Map();
  for (const s of v.schemas) {
    const id = isRecord(s.value) && typeof s.value.$id === 'string' ? s.value.$id : s.typeName;
    types.set(s.typeName, { file: s.file, value: s.value, locate: s.locate, id, at: '' });
  }
  const examples = new Map<string, unknown[]>();
  for (const f of v.fixtures) {
    if (f.kind !== 'examples' || !f.path.endsWith('.json')) continue;
    const typeName = f.path.split('/')[0] ?? '';
    try {
      examples.set(typeName, [...(examples.get(typeName) ?? []), JSON.parse(f.text)]);
    } catch {
      // A fixture that does not parse is the lint stage's to report; a diff only loses one base.
    }
  }
  return {
    label: `${v.protocol}@${v.version}`,
    types,
    openapi: { file: v.openapi.file, value: v.openapi.value, locate: v.openapi.locate },
    ...(v.openrpc
      ? { openrpc: { file: v.openrpc.file, value: v.openrpc.value, locate: v.openrpc.locate } }
      : {}),
    examples,
  };
}

/**
 * The side a path is: a folder holding `<Type>.schema.json` files (and perhaps `openapi.yaml`, `openrpc.json` and
 * `examples/<Type>/*.json`), or a bundle file (`bundle.schema.json`: the types under `$defs`).
 */
export async function sideFromPath(target: string, cwd: string = process.cwd()): Promise<DiffSide> {
  const full = path.resolve(cwd, target);
  if (!existsSync(full)) throw new SideError(`${target}: no such file or folder`);
  const shown = (file: string) => path.relative(cwd, file).split(path.sep).join('/') || '.';
  const info = statSync(full);
  if (info.isFile()) return sideFromBundle(full, shown(full));
  // A FIFO or a device would block the read for ever (`validate` refuses them the same way).
  if (!info.isDirectory()) throw new SideError(`${target}: not a regular file or a folder`);
  const names = (await readdir(full)).sort();
  const typeFiles = names.filter((n) => n.endsWith(SCHEMA_SUFFIX) && /^[A-Z]/.test(n));
  if (typeFiles.length === 0) {
    if (names.includes('bundle.schema.json'))
      return sideFromBundle(path.join(full, 'bundle.schema.json'), shown(full));
    throw new SideError(
      `${target}: no <TypeName>.schema.json files and no bundle.schema.json here; give a protocol version (id@version), a folder of schemas or a bundle`,
    );
  }
  const types: DiffSide['types'] = new Map();
  for (const name of typeFiles) {
    const file = path.join(full, name);
    const doc = await parseFile(file, shown(file), 'json');
    const typeName = name.slice(0, -SCHEMA_SUFFIX.length);
    const id =
      isRecord(doc.value) && typeof doc.value.$id === 'string'
        ? doc.value.$id
        : `${LOCAL_BASE}${typeName}${SCHEMA_SUFFIX}`;
    types.set(typeName, {
      ...doc,
      value: isRecord(doc.value) ? { ...doc.value, $id: id } : doc.value,
      id,
      at: '',
    });
  }
  const openapiName = ['openapi.yaml', 'openapi.yml', 'openapi.json'].find((n) => names.includes(n));
  const openapi = openapiName
    ? await parseFile(
        path.join(full, openapiName),
        shown(path.join(full, openapiName)),
        openapiName.endsWith('.json') ? 'json' : 'yaml',
      )
    : undefined;
  const openrpc = names.includes('openrpc.json')
    ? await parseFile(path.join(full, 'openrpc.json'), shown(path.join(full, 'openrpc.json')), 'json')
    : undefined;
  return {
    label: shown(full),
    types,
    ...(openapi ? { openapi } : {}),
    ...(openrpc ? { openrpc } : {}),
    examples: await readExamples(path.join(full, 'examples')),
  };
}

async function sideFromBundle(file: string, label: string): Promise<DiffSide> {
  const doc = await parseFile(file, label, 'json');
  const defs = isRecord(doc.value) ? (doc.value.$defs ?? doc.value.definitions) : undefined;
  if (!isRecord(defs))
    throw new SideError(
      `${label}: not a bundle: expected the types under "$defs" (what \`agentproto export\` writes)`,
    );
  if (
    isRecord(doc.value) &&
    doc.value.$schema !== undefined &&
    !String(doc.value.$schema).includes('2020-12')
  )
    throw new SideError(
      `${label}: ${String(doc.value.$schema)} is not JSON Schema 2020-12; diff the 2020-12 bundle (bundle.schema.json)`,
    );
  const types: DiffSide['types'] = new Map();
  for (const [typeName, raw] of Object.entries(defs)) {
    // A bundle of our own gives each type its `$id`; any other refers to its types as `#/$defs/<Type>`.
    const local = mapRefs(raw, (ref) =>
      ref.replace(/^#\/(?:\$defs|definitions)\/([^/]+)$/, `$1${SCHEMA_SUFFIX}`),
    );
    const id =
      isRecord(raw) && typeof raw.$id === 'string' ? raw.$id : `${LOCAL_BASE}${typeName}${SCHEMA_SUFFIX}`;
    types.set(typeName, {
      file: label,
      value: isRecord(local) ? { ...local, $id: id } : local,
      ...(doc.locate ? { locate: doc.locate } : {}),
      id,
      at: `/$defs/${typeName}`,
    });
  }
  return { label, types, examples: new Map() };
}

/** A regular file's text; anything else (a FIFO named `*.schema.json`, a device) is refused before it is opened. */
async function readRegular(file: string, shown: string): Promise<string> {
  if (!(await stat(file)).isFile())
    throw new SideError(`${shown}: not a regular file (a FIFO or a device would block the read)`);
  return readFile(file, 'utf8');
}

async function parseFile(file: string, shown: string, kind: 'json' | 'yaml'): Promise<SideDocument> {
  const text = await readRegular(file, shown);
  let parsed: ReturnType<typeof parseJsonWithLocator>;
  try {
    parsed = kind === 'json' ? parseJsonWithLocator(text) : parseYamlWithLocator(text);
  } catch (error) {
    // A parser that recurses runs out of stack on a deep document: that is its depth, not its syntax.
    if (error instanceof RangeError) throw new SideError(`${shown}: nests too deep to read`);
    throw new SideError(
      `${shown}: not valid ${kind.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const problem = (await shapeCheck())(parsed.value, MAX_DEPTH);
  if (problem?.kind === 'too-deep')
    throw new SideError(`${shown}: nests too deep: more than ${MAX_DEPTH} levels at ${problem.pointer}`);
  return { file: shown, value: parsed.value, locate: parsed.locate };
}

async function readExamples(dir: string): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  const findShapeProblem = await shapeCheck();
  for (const typeName of await readdir(dir).catch((): string[] => [])) {
    const files = await readdir(path.join(dir, typeName)).catch((): string[] => []);
    for (const f of files.filter((x) => x.endsWith('.json')).sort()) {
      try {
        const file = path.join(dir, typeName, f);
        const value: unknown = JSON.parse(await readRegular(file, file));
        if (findShapeProblem(value, MAX_DEPTH)?.kind === 'too-deep') continue;
        out.set(typeName, [...(out.get(typeName) ?? []), value]);
      } catch {
        // An example that does not parse (or is no regular file, or nests too deep) only costs the diff one base.
      }
    }
  }
  return out;
}
