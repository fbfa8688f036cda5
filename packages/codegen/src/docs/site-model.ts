// What the docs site is rendered from: the published schema set (the files `agentproto export` writes, which hold
// each protocol's manifest (`protocol.json`), README and DECISIONS beside its versions), and per version its HTTP surface and a check
// that gives the errors our validators give. Both a checkout and an installed CLI can supply these, so the site is
// the same either way.
import type { JsonSchemaObject, Surface } from '@agentproto/runtime/contract';
import { parse as parseYaml } from 'yaml';
import type { DiffReport } from '../diff/diff-types.js';
import type { ExportFile } from '../export/export-schemas.js';
import { isRecord } from '../util/json.js';

/** One issue a validator (or a protocol's document rule) finds in a message. */
export interface DocsIssue {
  pointer: string;
  message: string;
  /** The JSON Schema keyword, or the id of the protocol rule. */
  rule: string;
}

/** One protocol version as the CLI hands it to the renderer. */
export interface DocsVersionInput {
  protocol: string;
  version: string;
  surface: Surface;
  /** The issues our validator (and the protocol's document rules) find in a message of a public type. */
  check: (typeName: string, value: unknown) => readonly DocsIssue[];
}

/** The changes from one version of a protocol to the next, as `agentproto diff` reports them. */
export interface DocsChanges {
  protocol: string;
  from: string;
  to: string;
  report: DiffReport;
}

/** Everything the site is made from. */
export interface DocsInput {
  /** The published schema set, as `renderExport` returns it (paths relative to the set's root). */
  files: readonly ExportFile[];
  versions: readonly DocsVersionInput[];
  changes: readonly DocsChanges[];
}

/** A fixture of a type: an example (must validate) or a counterexample (must not), with what the validator says. */
export interface DocsFixture {
  name: string;
  text: string;
  issues: readonly DocsIssue[];
}

/** One named type of a version. */
export interface DocsType {
  name: string;
  schema: JsonSchemaObject;
  /** Its file in the set (`a2a/1.0/Task.schema.json`). */
  file: string;
  examples: DocsFixture[];
  counterexamples: DocsFixture[];
}

/** An operation's prose, from the OpenAPI document (the surface keeps only what checking needs). */
export interface OperationText {
  summary?: string;
  description?: string;
}

/** One protocol version, ready to render. */
export interface DocsVersion {
  protocol: string;
  version: string;
  title: string;
  description: string;
  surface: Surface;
  types: Map<string, DocsType>;
  /** Prose of each operation by operationId, and of each JSON-RPC method by name. */
  operationText: Map<string, OperationText>;
  methodText: Map<string, OperationText>;
  /** The set's files of this version beside the type files (OpenAPI, OpenRPC, bundles, declarations). */
  documents: string[];
}

/** One protocol. */
export interface DocsProtocol {
  id: string;
  title: string;
  latest: string;
  readme: string;
  decisions: string;
  versions: DocsVersion[];
  changes: DocsChanges[];
}

/** The whole site's data. */
export interface DocsSite {
  readme: string;
  protocols: DocsProtocol[];
  /** Schemas that belong to no protocol (the conformance report, the diff report): their files in the set. */
  standalone: Array<{ file: string; title: string; description: string }>;
  files: readonly ExportFile[];
}

interface Manifest {
  id: string;
  title: string;
  latest: string;
  versions: Record<string, { title: string }>;
}

/** Reads the site's data out of the schema set and the versions' surfaces and checks. */
export function siteModel(input: DocsInput): DocsSite {
  const byPath = new Map(input.files.map((f) => [f.path, f.content]));
  const text = (p: string) => byPath.get(p) ?? '';
  const protocols: DocsProtocol[] = [];
  const manifests = input.files
    .filter((f) => /^[^/]+\/protocol\.json$/.test(f.path))
    // sound: renderExport writes each protocol.json from a manifest that passed its schema, in this shape.
    .map((f) => JSON.parse(f.content) as Manifest)
    .sort((a, b) => a.id.localeCompare(b.id));
  for (const m of manifests) {
    const versions: DocsVersion[] = [];
    for (const v of input.versions.filter((x) => x.protocol === m.id)) {
      versions.push(versionModel(m, v, input.files, text));
    }
    versions.sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
    protocols.push({
      id: m.id,
      title: m.title,
      latest: m.latest,
      readme: text(`${m.id}/README.md`),
      decisions: text(`${m.id}/DECISIONS.md`),
      versions,
      changes: input.changes.filter((c) => c.protocol === m.id),
    });
  }
  const protocolIds = new Set(manifests.map((m) => m.id));
  const standalone = input.files
    .filter((f) => f.path.endsWith('.schema.json') && !protocolIds.has(f.path.split('/')[0] ?? ''))
    .map((f) => {
      const s: unknown = JSON.parse(f.content);
      const title = isRecord(s) && typeof s.title === 'string' ? s.title : f.path;
      const description = isRecord(s) && typeof s.description === 'string' ? s.description : '';
      return { file: f.path, title, description };
    });
  return { readme: text('README.md'), protocols, standalone, files: input.files };
}

function versionModel(
  m: Manifest,
  v: DocsVersionInput,
  files: readonly ExportFile[],
  text: (p: string) => string,
): DocsVersion {
  const dir = `${m.id}/${v.version}/`;
  const types = new Map<string, DocsType>();
  const documents: string[] = [];
  for (const f of files) {
    if (!f.path.startsWith(dir)) continue;
    const rest = f.path.slice(dir.length);
    const typeFile = /^([^/]+)\.schema\.json$/.exec(rest);
    if (typeFile?.[1] && !rest.startsWith('bundle.')) {
      types.set(typeFile[1], {
        name: typeFile[1],
        // sound: a type's file in the set is its schema file, which passed the 2020-12 meta-schema.
        schema: JSON.parse(f.content) as JsonSchemaObject,
        file: f.path,
        examples: [],
        counterexamples: [],
      });
    } else if (!rest.includes('/')) documents.push(f.path);
  }
  for (const f of files) {
    const fixture = /^(examples|counterexamples)\/([^/]+)\/(.+)\.json$/.exec(f.path.slice(dir.length));
    if (!f.path.startsWith(dir) || !fixture) continue;
    const [, kind, typeName = '', name = ''] = fixture;
    const type = types.get(typeName);
    if (!type) continue;
    let issues: readonly DocsIssue[];
    try {
      issues = v.check(typeName, JSON.parse(f.content));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      issues = [{ pointer: '', message: `not JSON: ${message}`, rule: 'json' }];
    }
    (kind === 'examples' ? type.examples : type.counterexamples).push({ name, text: f.content, issues });
  }
  const openapi: unknown = parseYaml(text(`${dir}openapi.yaml`) || '{}');
  const openrpc = text(`${dir}openrpc.json`);
  const info = isRecord(openapi) && isRecord(openapi.info) ? openapi.info : {};
  return {
    protocol: m.id,
    version: v.version,
    title: m.versions[v.version]?.title ?? `${m.title} ${v.version}`,
    description: typeof info.description === 'string' ? info.description : '',
    surface: v.surface,
    types: new Map([...types].sort(([a], [b]) => a.localeCompare(b))),
    operationText: operationTexts(openapi),
    methodText: methodTexts(openrpc ? JSON.parse(openrpc) : undefined),
    documents: documents.sort(),
  };
}

function prose(node: Record<string, unknown>): OperationText {
  return {
    ...(typeof node.summary === 'string' ? { summary: node.summary } : {}),
    ...(typeof node.description === 'string' ? { description: node.description } : {}),
  };
}

/** Each operation's summary and description, by operationId. */
function operationTexts(openapi: unknown): Map<string, OperationText> {
  const out = new Map<string, OperationText>();
  const paths = isRecord(openapi) && isRecord(openapi.paths) ? openapi.paths : {};
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue;
    for (const op of Object.values(item)) {
      if (isRecord(op) && typeof op.operationId === 'string') out.set(op.operationId, prose(op));
    }
  }
  return out;
}

/** Each JSON-RPC method's summary and description, by name. */
function methodTexts(openrpc: unknown): Map<string, OperationText> {
  const out = new Map<string, OperationText>();
  const methods = isRecord(openrpc) && Array.isArray(openrpc.methods) ? openrpc.methods : [];
  for (const m of methods) if (isRecord(m) && typeof m.name === 'string') out.set(m.name, prose(m));
  return out;
}
