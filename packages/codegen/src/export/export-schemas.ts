// Export: the publishable schema set for other languages, composed from what the load stage read. Pure: it reads and
// writes nothing itself (the CLI writes the files).

import { compileTypes, typesDocument } from '../emit/types/emit-json-schema-types.js';
import type { LoadedManifest } from '../load/load-manifests.js';
import { type LoadedVersion, loadTree, SCHEMA_ID_BASE } from '../load/load-protocols.js';
import { typesOf } from '../model/types.js';
import { isRecord, mapRefs } from '../util/json.js';
import { validateVersion } from '../validate/validate-version.js';
import { anyValueTypes } from './any-value.js';

/** One file of the export: its path inside the export folder and its text. */
export interface ExportFile {
  path: string;
  content: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The publishable set of schemas, for other languages: per protocol version its per-type files (each with its
 * `$id`), its OpenAPI document, one 2020-12 bundle, one draft-07 bundle for tools that predate 2020-12, and its
 * examples and counterexamples; plus a SchemaStore-style `catalog.json` and any standalone schema folders (such as the
 * conformance report). Every `$ref` resolves within the set. Pure: returns the files, writes nothing.
 */
export async function renderExport(root: string, protocols?: readonly string[]): Promise<ExportFile[]> {
  const files: ExportFile[] = [];
  const catalog: Array<{
    name: string;
    description: string;
    url: string;
    versions?: Record<string, string>;
  }> = [];
  const tree = await loadTree(root, protocols);
  for (const v of tree.versions) {
    validateVersion(v);
    const dir = `${v.protocol}/${v.version}`;
    for (const s of v.schemas)
      files.push({ path: `${dir}/${s.typeName}.schema.json`, content: json(s.value) });
    files.push({ path: `${dir}/openapi.yaml`, content: v.openapi.text });
    if (v.openrpc) files.push({ path: `${dir}/openrpc.json`, content: v.openrpc.text });
    files.push({ path: `${dir}/types.d.ts`, content: await declarations(v) });
    files.push({ path: `${dir}/bundle.schema.json`, content: json(bundle2020(v)) });
    files.push({ path: `${dir}/bundle.draft-07.schema.json`, content: json(bundleDraft07(v)) });
    for (const f of v.fixtures) files.push({ path: `${dir}/${f.kind}/${f.path}`, content: f.text });
    catalog.push({
      name: `${v.protocol} ${v.version}`,
      description: `Every type of ${v.entry.title}, as one JSON Schema 2020-12 bundle (per-type files beside it).`,
      url: `${SCHEMA_ID_BASE}/${dir}/bundle.schema.json`,
      versions: { 'draft-07': `${SCHEMA_ID_BASE}/${dir}/bundle.draft-07.schema.json` },
    });
  }
  // Standalone schemas (not protocols): folders under schemas/ whose files are only `*.schema.json`.
  for (const set of tree.standalone) {
    for (const f of set.files) {
      files.push({ path: `${set.name}/${f.name}`, content: f.text });
      const schema: unknown = JSON.parse(f.text);
      catalog.push({
        name: stringAt(schema, 'title') ?? f.name,
        description: stringAt(schema, 'description') ?? '',
        url: stringAt(schema, '$id') ?? '',
      });
    }
  }
  // Each protocol's manifest (what its versions are called, which is the latest) and its prose: what a reader of the
  // set (and the docs site, which is made from the set) needs beside the schemas.
  for (const { manifest } of tree.manifests) {
    if (protocols && !protocols.includes(manifest.id)) continue;
    const versions = Object.fromEntries(
      Object.entries(manifest.versions).map(([v, e]) => [v, { title: e.title }]),
    );
    files.push({
      path: `${manifest.id}/protocol.json`,
      content: json({ id: manifest.id, title: manifest.title, latest: manifest.latest, versions }),
    });
  }
  for (const p of tree.prose) files.push({ path: `${p.protocol}/${p.name}`, content: p.text });
  files.push({ path: 'README.md', content: exportReadme(tree.readme, tree.manifests, tree.versions) });
  files.push({
    path: 'catalog.json',
    content: json({
      $schema: 'https://json.schemastore.org/schema-catalog.json',
      version: 1,
      schemas: catalog,
    }),
  });
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** A string keyword of a schema (`title`, `$id`), if it has one. */
function stringAt(schema: unknown, key: string): string | undefined {
  const value = isRecord(schema) ? schema[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The version's types as one TypeScript declaration file, from json-schema-to-typescript over the schema files alone:
 * for TypeScript users who take only the schemas.
 */
async function declarations(v: LoadedVersion): Promise<string> {
  const text = await compileTypes(typesDocument(typesOf(v)));
  return `// TypeScript types of ${v.entry.title} (${v.protocol}@${v.version}), from its JSON Schema files by json-schema-to-typescript.\n${text}\n`;
}

/** One 2020-12 document holding every type as an embedded resource: relative `$ref`s resolve by the embedded `$id`s. */
function bundle2020(v: LoadedVersion): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (const t of typesOf(v)) {
    const { $schema: _s, ...rest } = t.schema;
    $defs[t.name] = rest;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_ID_BASE}/${v.protocol}/${v.version}/bundle.schema.json`,
    title: `${v.protocol} ${v.version}`,
    description: `Every type of ${v.protocol} ${v.version}; validate against "#/$defs/<Type>".`,
    $defs,
  };
}

/**
 * The same types as one draft-07 document for tools that predate 2020-12: `$defs` become `definitions` and references
 * point into them; `unevaluatedProperties: false` over an `allOf` becomes `additionalProperties: false` with the
 * inherited property names listed (what our schemas mean by it); OpenAPI's `discriminator` is kept, as an unknown
 * keyword that draft-07 tools ignore; an if/then/else choosing between two types also gets them as anyOf; a type
 * that accepts every JSON value (any-value.ts) becomes the empty schema.
 */
function bundleDraft07(v: LoadedVersion): Record<string, unknown> {
  const byName = new Map(typesOf(v).map((t) => [t.name, t.schema]));
  const toLocal = (ref: string) => {
    const [file = '', fragment = ''] = ref.split('#');
    const name = file.replace(/^\.\//, '').replace(/\.schema\.json$/, '');
    return byName.has(name) ? `#/definitions/${name}${fragment}` : ref;
  };
  // A type that accepts every JSON value, however it says so (a recursive union of objects, arrays and scalars, say),
  // is written as the empty schema with its title and description: the same instances, and code generators read
  // it as "any" instead of following its recursion (quicktype's Python renderer overflows its stack on one).
  const anyValue = anyValueTypes(byName, (ref) => {
    const [file = '', fragment] = ref.split('#');
    return fragment ? ref : file.replace(/^\.\//, '').replace(/\.schema\.json$/, '');
  });
  const definitions: Record<string, unknown> = {};
  for (const [name, schema] of byName) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    definitions[name] = anyValue.has(name) ? annotationsOf(rest) : downlevel(mapRefs(rest, toLocal), byName);
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${SCHEMA_ID_BASE}/${v.protocol}/${v.version}/bundle.draft-07.schema.json`,
    title: `${v.protocol} ${v.version} (draft-07)`,
    description: `Every type of ${v.protocol} ${v.version}, down-levelled to draft-07; validate against "#/definitions/<Type>".`,
    definitions,
  };
}

/** A schema's title and description alone: the empty schema, documented. */
function annotationsOf(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['title', 'description'] as const) if (schema[k] !== undefined) out[k] = schema[k];
  return out;
}

function downlevel(node: unknown, byName: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (Array.isArray(node)) return node.map((n) => downlevel(n, byName));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(node)) {
    if (k === '$defs') out.definitions = downlevel(val, byName);
    else if (k === 'unevaluatedProperties') continue;
    // 2019-09 split draft-07's `dependencies` in two: a list of names (dependentRequired) and a schema
    // (dependentSchemas); draft-07 reads both from `dependencies`.
    else if (k === 'dependentRequired' || k === 'dependentSchemas') {
      const down = downlevel(val, byName);
      out.dependencies = {
        ...(isRecord(out.dependencies) ? out.dependencies : {}),
        ...(isRecord(down) ? down : {}),
      };
    } else out[k] = downlevel(val, byName);
  }
  // Before 2019-09 a `$ref` ignores the keywords beside it: constraints beside one move into an allOf.
  const annotations = new Set(['$ref', 'description', 'default', 'title', 'examples', '$comment']);
  if (typeof out.$ref === 'string' && Object.keys(out).some((k) => !annotations.has(k))) {
    const { $ref, description, default: dflt, title, ...constraints } = out;
    return {
      ...(description === undefined ? {} : { description }),
      ...(title === undefined ? {} : { title }),
      ...(dflt === undefined ? {} : { default: dflt }),
      allOf: [{ $ref }, constraints],
    };
  }
  // An if/then/else that chooses between two types also states the pair as anyOf: the same instances validate, and
  // code generators that do not read if/then/else (quicktype) see the union.
  const branch = (x: unknown) => (isRecord(x) && typeof x.$ref === 'string' ? x : undefined);
  if (node.if !== undefined && branch(out.then) && branch(out.else) && out.anyOf === undefined)
    out.anyOf = [out.then, out.else];
  if (node.unevaluatedProperties === false) {
    const inherited = inheritedProperties(node, byName);
    const properties = { ...(isRecord(out.properties) ? out.properties : {}) };
    for (const name of inherited) if (!(name in properties)) properties[name] = true;
    out.properties = properties;
    out.additionalProperties = false;
  }
  return out;
}

/** Every property name a schema's `allOf` references declare, through their own `allOf`s. */
function inheritedProperties(
  schema: Record<string, unknown>,
  byName: ReadonlyMap<string, Record<string, unknown>>,
): string[] {
  const names: string[] = [];
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const ref = isRecord(part) && typeof part.$ref === 'string' ? part.$ref : undefined;
    const target = ref
      ? byName.get(ref.replace(/^#\/definitions\//, '').replace(/\.schema\.json$/, ''))
      : isRecord(part)
        ? part
        : undefined;
    if (!target) continue;
    names.push(
      ...Object.keys(isRecord(target.properties) ? target.properties : {}),
      ...inheritedProperties(target, byName),
    );
  }
  return [...new Set(names)];
}

/** The set's README: `schemas/README.md`, with the table of protocols and versions it holds in place of its marker. */
function exportReadme(
  text: string,
  manifests: readonly LoadedManifest[],
  versions: readonly LoadedVersion[],
): string {
  const rows = manifests.flatMap(({ manifest }) =>
    versions
      .filter((v) => v.protocol === manifest.id)
      .map(
        (v) =>
          `| \`${manifest.id}/${v.version}/\` | ${v.entry.title}${v.version === manifest.latest ? ' (latest)' : ''} | ${v.schemas.length} |`,
      ),
  );
  const table = ['| folder | protocol version | types |', '| --- | --- | --- |', ...rows].join('\n');
  return text.replace(/^<!-- protocols: .* -->$/m, table);
}
