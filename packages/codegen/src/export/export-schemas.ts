import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type LoadedVersion, loadProtocols, SCHEMA_ID_BASE } from '../load/load-protocols.js';
import { isRecord, mapRefs } from '../util/json.js';
import { validateVersion } from '../validate/validate-version.js';

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
  for (const v of await loadProtocols(root, protocols)) {
    validateVersion(v);
    const dir = `${v.protocol}/${v.version}`;
    for (const s of v.schemas)
      files.push({ path: `${dir}/${s.typeName}.schema.json`, content: json(s.value) });
    files.push({
      path: `${dir}/openapi.yaml`,
      content: await readFile(path.join(root, v.openapi.file), 'utf8'),
    });
    files.push({ path: `${dir}/bundle.schema.json`, content: json(bundle2020(v)) });
    files.push({ path: `${dir}/bundle.draft-07.schema.json`, content: json(bundleDraft07(v)) });
    for (const kind of ['examples', 'counterexamples']) {
      for (const f of await listFiles(path.join(root, v.dir, kind))) {
        files.push({
          path: `${dir}/${kind}/${f}`,
          content: await readFile(path.join(root, v.dir, kind, f), 'utf8'),
        });
      }
    }
    catalog.push({
      name: `${v.protocol} ${v.version}`,
      description: `Every type of ${v.protocol} ${v.version}, as one JSON Schema 2020-12 bundle (per-type files beside it).`,
      url: `${SCHEMA_ID_BASE}/${dir}/bundle.schema.json`,
      versions: { 'draft-07': `${SCHEMA_ID_BASE}/${dir}/bundle.draft-07.schema.json` },
    });
  }
  // Standalone schemas (not protocols): folders under schemas/ whose files are only `*.schema.json`.
  if (!protocols) {
    for (const f of await listFiles(path.join(root, 'schemas', 'conformance'))) {
      if (!f.endsWith('.schema.json')) continue;
      const text = await readFile(path.join(root, 'schemas', 'conformance', f), 'utf8');
      files.push({ path: `conformance/${f}`, content: text });
      const schema = JSON.parse(text) as { $id?: string; title?: string; description?: string };
      catalog.push({ name: schema.title ?? f, description: schema.description ?? '', url: schema.$id ?? '' });
    }
  }
  files.push({ path: 'README.md', content: EXPORT_README });
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

/** One 2020-12 document holding every type as an embedded resource: relative `$ref`s resolve by the embedded `$id`s. */
function bundle2020(v: LoadedVersion): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (const s of v.schemas) {
    const { $schema: _s, ...rest } = s.value as Record<string, unknown>;
    $defs[s.typeName] = rest;
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
 * keyword that draft-07 tools ignore; an if/then/else choosing between two types also gets them as anyOf.
 */
function bundleDraft07(v: LoadedVersion): Record<string, unknown> {
  const byName = new Map(v.schemas.map((s) => [s.typeName, s.value as Record<string, unknown>]));
  const toLocal = (ref: string) => {
    const [file = '', fragment = ''] = ref.split('#');
    const name = file.replace(/^\.\//, '').replace(/\.schema\.json$/, '');
    return byName.has(name) ? `#/definitions/${name}${fragment}` : ref;
  };
  const definitions: Record<string, unknown> = {};
  for (const [name, schema] of byName) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    definitions[name] = downlevel(mapRefs(rest, toLocal), byName);
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${SCHEMA_ID_BASE}/${v.protocol}/${v.version}/bundle.draft-07.schema.json`,
    title: `${v.protocol} ${v.version} (draft-07)`,
    description: `Every type of ${v.protocol} ${v.version}, down-levelled to draft-07; validate against "#/definitions/<Type>".`,
    definitions,
  };
}

function downlevel(node: unknown, byName: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (Array.isArray(node)) return node.map((n) => downlevel(n, byName));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(node)) {
    if (k === '$defs') out.definitions = downlevel(val, byName);
    else if (k === 'unevaluatedProperties') continue;
    else out[k] = downlevel(val, byName);
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

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), `${prefix}${e.name}/`)));
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}

const EXPORT_README = `# agentproto schemas

The wire types of each protocol version, as JSON Schema, for any language. The folder mirrors the schemas' \`$id\`s
(\`https://agentproto.dev/schemas/<protocol>/<version>/<Type>.schema.json\`), so a copy served at that base, or read
from disk, resolves every \`$ref\` inside the set.

## Layout

- \`<protocol>/<version>/<Type>.schema.json\`: one file per type, JSON Schema 2020-12, with its \`$id\`. References
  between types are sibling file names.
- \`<protocol>/<version>/bundle.schema.json\`: every type in one 2020-12 document, each an embedded resource under
  \`$defs\` (validate against \`#/$defs/<Type>\`).
- \`<protocol>/<version>/bundle.draft-07.schema.json\`: the same types for tools that predate 2020-12 (validate against
  \`#/definitions/<Type>\`). Down-levelling rules: \`$defs\` become \`definitions\`; \`unevaluatedProperties: false\`
  beside an \`allOf\` becomes \`additionalProperties: false\` with the inherited property names listed; constraints
  beside a \`$ref\` move into an \`allOf\`; an \`if\`/\`then\`/\`else\` choosing between two types also lists them as
  \`anyOf\`. OpenAPI's \`discriminator\` stays, as a keyword draft-07 tools ignore.
- \`<protocol>/<version>/openapi.yaml\`: the HTTP surface (OpenAPI 3.1); streamed items are typed with \`x-itemSchema\`.
- \`<protocol>/<version>/examples/<Type>/*.json\` must validate; \`counterexamples/<Type>/*.json\` must not, for the
  reason \`counterexamples/expected-errors.json\` states.
- \`conformance/report/ConformanceReport.schema.json\`: what \`agentproto conformance --reporter json\` writes.
- \`catalog.json\`: a SchemaStore-style catalog of the bundles.

Python's \`jsonschema\` validates every example and counterexample against the per-type files, the 2020-12 bundle
and the draft-07 bundle, and agrees with agentproto's own validators on each (the project's tests check it).

## Validating from other languages

The per-type files refer to each other by relative \`$ref\` (\`Artifact.schema.json\`), which resolve against each
file's \`$id\`. A validator must therefore know every file of the set by its \`$id\` (or be given a bundle): handing
one per-type file to \`jsonschema.validate(document, schema)\` alone fails on the first reference. Both examples
below are run by the project's tests over every example and counterexample of every version.

### Python: jsonschema with a referencing Registry (jsonschema 4.18 or later)

Registers every per-type file under its \`$id\`, then checks documents against one type:

\`\`\`python
# python3 validate.py <export-dir> <protocol>/<version>/<Type> <document.json>...
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

export_dir, type_path, documents = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]

# Every per-type file, registered under its $id: the relative $refs between types resolve inside the registry.
schemas = [json.loads(p.read_text()) for p in export_dir.glob("**/*.schema.json") if not p.name.startswith("bundle.")]
registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)

schema = registry.contents(f"https://agentproto.dev/schemas/{type_path}.schema.json")
validator = Draft202012Validator(schema, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
invalid = 0
for document in documents:
    errors = list(validator.iter_errors(json.loads(pathlib.Path(document).read_text())))
    invalid += bool(errors)
    print(f"{document}: {'invalid' if errors else 'valid'}")
    for error in errors:
        print(f"  {error.json_path}: {error.message}")
sys.exit(1 if invalid else 0)
\`\`\`

\`\`\`sh
python3 validate.py ./schemas agent-protocol/v1/Task task.json
\`\`\`

### Go: gojsonschema with the draft-07 bundle

[gojsonschema](https://github.com/xeipuuv/gojsonschema) implements draft-07, so it reads the down-levelled bundle and
points into its \`definitions\`:

\`\`\`go
// go run validate.go <export-dir> <protocol>/<version> <Type> <document.json>...
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/xeipuuv/gojsonschema"
)

func fileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		panic(err)
	}
	return "file://" + filepath.ToSlash(abs)
}

func main() {
	exportDir, version, typeName := os.Args[1], os.Args[2], os.Args[3]
	// The draft-07 bundle holds every type of the version under definitions; compile the one asked for once.
	bundle := fileURL(filepath.Join(exportDir, version, "bundle.draft-07.schema.json"))
	schema, err := gojsonschema.NewSchema(gojsonschema.NewReferenceLoader(bundle + "#/definitions/" + typeName))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	invalid := 0
	for _, document := range os.Args[4:] {
		result, err := schema.Validate(gojsonschema.NewReferenceLoader(fileURL(document)))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if result.Valid() {
			fmt.Printf("%s: valid\\n", document)
			continue
		}
		invalid++
		fmt.Printf("%s: invalid\\n", document)
		for _, e := range result.Errors() {
			fmt.Printf("  %s: %s\\n", e.Field(), e.Description())
		}
	}
	if invalid > 0 {
		os.Exit(1)
	}
}
\`\`\`

\`\`\`sh
go run validate.go ./schemas agent-protocol/v1 Task task.json
\`\`\`

Both print each document with \`valid\` or \`invalid\` and the errors, and exit 1 when any document is invalid.

## Generating types with quicktype: what does not carry over

The project's tests generate Python and Go types for every version with quicktype (from the draft-07 bundle, with
\`combineClasses: false\`); the Python types load every example, and the Go types compile and round-trip them. What
is lost on the way:

- **Unions are flattened.** A \`oneOf\` or \`anyOf\` of object types (AgentScope's \`Content\` and \`StreamEvent\`, the
  2025 draft's \`AgentEvent\` and \`Request\`) becomes one class with every branch's fields optional. The discriminator
  (\`type\`, \`object\`) is kept as a field, but the generated code does not check that the other fields fit it, so it
  accepts some of the counterexamples. Validate with the schemas where that matters.
- **\`if\`/\`then\`/\`else\`** (Fixie's \`AgentMetadata\`, the 2025 draft's \`Request\`) is read through the \`anyOf\` the
  draft-07 bundle adds; without it quicktype would keep only the shared fields.
- **Keys an open object allows but does not name** have no field in a Go struct and are dropped on a round trip
  (for example \`Artifact/extra-fields-allowed.json\` of Agent Protocol v1, \`AgentRequest/extra-keys-allowed.json\` of
  AgentScope 1.1).
- **Go writes \`null\`, an absent optional field and an empty object alike**: \`"embeds": {}\` comes back absent.
- **A top-level free-form object that may be null** (Agent Protocol v1's \`StepOutput\`) gets no Go type of its own;
  it round-trips as the \`additional_output\` field of \`Step\`.
- **Names**: acronyms are written in capitals in Go (\`McpCall\` becomes \`MCPCall\`); classes of the same shape stay
  apart only with \`combineClasses: false\`.
- **Integers**: JSON Schema's \`integer\` becomes Go \`int64\` and Python \`int\`; minimums and maximums are not carried.
`;
