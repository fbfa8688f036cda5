// Emits `binding.ts`: a protocol version's binding, the one object the CLI, the conformance kit and `agentproto new`
// read (its fixed shape is the runtime's ProtocolBinding). The generated validators and paths are gathered here with
// the package's own modules the manifest names, so adding a version means adding it to `protocol.yaml`.
import path from 'node:path';
import type { ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, joinCode, literal, str, ts } from '../code.js';

/** The generated binding's folder inside its package: `src/generated/<version>/`. */
const bindingDir = (version: string) => `src/generated/${version}`;

/** A package module (`src/binding/1.0.ts`) as the generated binding imports it (`../../binding/1.0.js`). */
export function importFromBinding(version: string, module: string): string {
  const relative = path.posix.relative(bindingDir(version), module).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The binding of one protocol version. */
export function emitBinding(model: ProtocolModel): Code {
  const b = model.binding;
  const imports: Code[] = [
    ts`import type { ProtocolBinding, Validator } from '@agentproto/runtime/contract';\n`,
  ];
  const fields: Code[] = [
    ts`  protocol: ${str(model.protocol)},\n`,
    ts`  version: ${str(model.version)},\n`,
    ts`  title: ${str(b.title)},\n`,
    ts`  package: ${str(b.package)},\n`,
    ts`  validators: validators as Readonly<Record<string, Validator>>,\n`,
    ts`  paths: PATHS,\n`,
  ];
  if (b.documentRules) {
    imports.push(
      ts`import { documentRules } from ${str(importFromBinding(model.version, b.documentRules))};\n`,
    );
    fields.push(ts`  documentRules,\n`);
  }
  if (b.streamCheck) {
    // The module's `streamCheck(version)` makes the check of this version (its own validators, its traits).
    imports.push(
      ts`import { streamCheck as createStreamCheck } from ${str(importFromBinding(model.version, b.streamCheck))};\n`,
    );
    fields.push(ts`  streamCheck: () => createStreamCheck(${str(model.version)}),\n`);
  }
  if (b.discoveryUrls) fields.push(ts`  discoveryUrls: ${literal(b.discoveryUrls)},\n`);
  // The surface is the schema-driven checks' concern: loaded only when they run.
  fields.push(ts`  surface: async () => (await import(${str('./surface.js')})).SURFACE,\n`);
  if (model.requirements) {
    imports.push(ts`import { REQUIREMENTS } from './requirements.js';\n`);
    fields.push(ts`  requirements: REQUIREMENTS,\n`);
  }
  if (model.clientRequirements) {
    imports.push(ts`import { CLIENT_REQUIREMENTS } from './client-requirements.js';\n`);
    fields.push(ts`  clientRequirements: CLIENT_REQUIREMENTS,\n`);
  }
  if (b.suite)
    // The suite is the kit's concern: loaded only when a conformance run asks for it.
    fields.push(
      ts`  suite: async () => (await import(${str(importFromBinding(model.version, b.suite))})).createSuite(${str(model.version)}),\n`,
    );
  if (b.template) {
    const dir = `${path.posix.relative(bindingDir(model.version), b.template.dir)}/`;
    fields.push(
      ts`  template: {\n    dir: new URL(${str(dir)}, import.meta.url),\n    extend: ${str(b.template.extend)},\n    dependencies: ${literal(b.template.dependencies ?? [])},\n  },\n`,
    );
  }
  if (b.referenceAgent)
    // The reference agent is a server, `agentproto serve`'s concern: loaded only when it starts one.
    fields.push(
      ts`  referenceAgent: async () => (await import(${str(importFromBinding(model.version, b.referenceAgent))})).referenceAgentFor(${str(model.version)}),\n`,
    );
  imports.push(
    ts`import { PATHS } from './paths.js';\n`,
    ts`import * as validators from './validators.js';\n`,
  );
  return ts`${imports}
${doc(`${b.title}: its validators, paths and rules, and the package's conformance suite, project template and reference agent for it.`)}export const binding: ProtocolBinding = {
${joinCode(fields, '')}};
`;
}
