// Model stage: turns a validated protocol version into the plain-data model every emitter reads, one OpenAPI
// construct per file (types, references, contents, parameters, operations, bundle).
import type { LoadedVersion } from '../load/load-protocols.js';
import { isRecord } from '../util/json.js';
import { bundle } from './bundle.js';
import { operationsOf } from './operations.js';
import { PROTO_JSON, protoNamesOf } from './proto-names.js';
import type { OperationModel, ProtocolModel } from './protocol-model.js';
import { modelContext } from './references.js';
import { rpcOf } from './rpc.js';

/** Model stage: turns a validated protocol version into the plain-data model the emitters share. */
export function buildModel(v: LoadedVersion): ProtocolModel {
  const ctx = modelContext(v);
  const rpc = rpcOf(v, ctx.types);
  const info = isRecord(ctx.doc.info) ? ctx.doc.info : {};
  const operations = operationsOf(ctx);
  const protoNames = info[PROTO_JSON] === true ? protoNamesOf(operations, ctx.types) : undefined;
  const { title, documentRules, streamCheck, discoveryUrls, suite, template, referenceAgent } = v.entry;
  return {
    protocol: v.protocol,
    version: v.version,
    binding: {
      title,
      package: v.manifest.package,
      packageDir: v.packageDir,
      ...(documentRules ? { documentRules } : {}),
      ...(streamCheck ? { streamCheck } : {}),
      ...(discoveryUrls ? { discoveryUrls } : {}),
      ...(suite ? { suite } : {}),
      ...(template ? { template } : {}),
      ...(referenceAgent ? { referenceAgent } : {}),
    },
    dir: v.dir,
    openapiFile: v.openapi.file,
    title: String(info.title ?? v.protocol),
    stem: pascalCase(v.protocol),
    types: ctx.types,
    operations,
    ...(protoNames ? { protoNames } : {}),
    requestExamples: requestExamples(v, operations),
    ...(v.requirements && v.requirementsFile
      ? { requirements: { file: v.requirementsFile, list: v.requirements } }
      : {}),
    ...(v.clientRequirements && v.clientRequirementsFile
      ? { clientRequirements: { file: v.clientRequirementsFile, list: v.clientRequirements } }
      : {}),
    ...(rpc ? { rpc } : {}),
    bundle: bundle(ctx.doc, ctx.types),
  };
}

/** `agent-protocol` → `AgentProtocol`; `agent-protocol-2025` → `AgentProtocol2025`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');
}

/** The examples of every type a request body has (`examples/<Type>/*.json`), parsed, in file order. */
function requestExamples(v: LoadedVersion, operations: readonly OperationModel[]): Record<string, unknown[]> {
  const types = new Set(
    operations.flatMap((o) =>
      (o.requestBody?.contents ?? []).map((c) => c.typeName).filter((t) => t !== undefined),
    ),
  );
  const out: Record<string, unknown[]> = {};
  for (const f of v.fixtures) {
    const type = f.path.split('/')[0] ?? '';
    if (f.kind !== 'examples' || !types.has(type) || !f.path.endsWith('.json')) continue;
    try {
      const value: unknown = JSON.parse(f.text);
      out[type] = [...(out[type] ?? []), value];
    } catch {
      // The validate stage reports an example that does not parse.
    }
  }
  return out;
}
