// @agentproto/codegen: the generator (load → validate → model → emit → write) and the schema export, with the
// stages' data types for scripts that drive them.
export {
  JsonSyntaxError,
  type Locator,
  parseJsonWithLocator,
  parseYamlWithLocator,
} from '@agentproto/runtime/locate';
export { createAjv, forAjv } from './ajv.js';
export { type Diagnostic, DiagnosticsError, formatDiagnostic } from './diagnostics.js';
export { diffSides } from './diff/diff.js';
export type { Breaks, Change, ChangeSite, DiffReport, DiffSide, Witness } from './diff/diff-types.js';
export { SideError, sideFromPath, sideFromVersion } from './diff/read-side.js';
export { WITNESS_PLACEHOLDER, witnessShown, witnessText } from './diff/witness-text.js';
export { type BrokenLink, checkLinks } from './docs/check-links.js';
export { renderSite, type SearchEntry } from './docs/render-site.js';
export type { DocsChanges, DocsInput, DocsIssue, DocsVersionInput } from './docs/site-model.js';
export { type ExportFile, renderExport } from './export/export-schemas.js';
export { type GenerateOptions, generate, outputDir, renderAll } from './generate.js';
export {
  type LoadedManifest,
  loadManifests,
  MANIFEST_FILE,
  type ProtocolManifest,
  type VersionManifest,
} from './load/load-manifests.js';
export {
  type LoadedTree,
  type LoadedVersion,
  loadProtocols,
  loadTree,
  SCHEMA_ID_BASE,
  schemaId,
} from './load/load-protocols.js';
export { buildModel } from './model/build-model.js';
export type { OperationModel, ProtocolModel } from './model/protocol-model.js';
export { validateVersion } from './validate/validate-version.js';
