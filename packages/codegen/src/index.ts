export { type Diagnostic, DiagnosticsError, formatDiagnostic } from './diagnostics.js';
export { type GenerateOptions, generate, outputDir, renderAll } from './generate.js';
export { type LoadedVersion, loadProtocols } from './load/load-protocols.js';
export { JsonSyntaxError, parseJsonWithLocator, parseYamlWithLocator, type Locator } from './load/locate.js';
export { buildModel, type ProtocolModel } from './model/protocol-model.js';
export { validateVersion } from './validate/validate-version.js';
export { createAjv } from './ajv.js';
