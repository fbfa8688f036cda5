// Emits what a protocol package knows of its versions as a whole, from its manifest: the list of versions and their
// traits (`versions.ts`), each version's generated code by version (`modules.ts`), and, when the manifest declares
// an `entry`, each version's entry point (`<version>/entry.ts`) and the latest one's (`latest.ts`). Hand-written code
// reads these instead of naming versions, so a version added to the manifest is known everywhere, and one whose
// traits are missing is a type error where the package states the traits it needs.
import path from 'node:path';
import type { LoadedManifest } from '../../load/load-manifests.js';
import { type Code, doc, ident, joinCode, literal, str, ts } from '../code.js';

/** The local name of the n-th version's import: versions are not identifiers (`1.1`), positions are. */
const local = (prefix: string, index: number): Code => ident(`${prefix}${index}`);

/** `src/generated/versions.ts`: the versions, the latest, their traits and their schema types. No code is loaded. */
export function emitVersions({ manifest }: LoadedManifest): Code {
  const versions = Object.keys(manifest.versions);
  const imports = versions.map(
    (v, i) => ts`import type { components as ${local('Components', i)} } from ${str(`./${v}/openapi.js`)};\n`,
  );
  const traits = versions.map((v) => ts`  ${str(v)}: ${literal(manifest.versions[v]?.traits ?? {})},\n`);
  const schemas = versions.map((v, i) => ts`  ${str(v)}: ${local('Components', i)}['schemas'];\n`);
  return ts`${imports}
${doc(`The versions of ${manifest.title} this package speaks, in the order schemas/${manifest.id}/protocol.yaml lists them.`)}export const VERSIONS = ${literal(versions)} as const;

${doc('One of VERSIONS.')}export type Version = (typeof VERSIONS)[number];

${doc(`The version \`--protocol ${manifest.id}\` means.`)}export const LATEST = ${str(manifest.latest)} satisfies Version;

${doc('Whether a string names one of VERSIONS.')}export function isVersion(value: string): value is Version {
  return (VERSIONS as readonly string[]).includes(value);
}

${doc(`What differs between the versions, as each version's \`traits\` in schemas/${manifest.id}/protocol.yaml say.`)}export const TRAITS = {
${joinCode(traits, '')}} as const;

${doc("Each version's schema types, by name: `Schemas[V]['Message']`.")}export interface Schemas {
${joinCode(schemas, '')}}
`;
}

/** `src/generated/modules.ts`: each version's generated code (validators, routes, paths, client), by version. */
export function emitModules({ manifest }: LoadedManifest): Code {
  const versions = Object.keys(manifest.versions);
  const imports = versions.map((v, i) => ts`import * as ${local('v', i)} from ${str(`./${v}/index.js`)};\n`);
  const entries = versions.map((v, i) => ts`  ${str(v)}: ${local('v', i)},\n`);
  return ts`${imports}
${doc("Each version's generated code, by version: `GENERATED[version].validators`, its routes and its client.")}export const GENERATED = {
${joinCode(entries, '')}} as const;
`;
}

/**
 * `src/generated/<version>/entry.ts`, what `@agentproto/<package>/<version>` is: the version's generated code, the
 * entry module's shared exports, and `forVersion(version)`'s results under the names the manifest lists.
 */
export function emitEntry({ manifest }: LoadedManifest, version: string): Code | undefined {
  const entry = manifest.entry;
  if (!entry) return undefined;
  const title = manifest.versions[version]?.title ?? `${manifest.title} ${version}`;
  const module = path.posix.relative(`src/generated/${version}`, entry.module).replace(/\.ts$/, '.js');
  // A name both star exports provide would be ambiguous (and exported by neither): the module's types named here win.
  const overrides = entry.overrideTypes
    ? ts`export type { ${joinCode(entry.overrideTypes.map(ident), ', ')} } from ${str(module)};
`
    : ts``;
  return ts`${doc(`${title}: the generated types, validators, routes and client, and the package's own exports bound to this version.`)}export * from './index.js';
export * from ${str(module)};
${overrides}
import { forVersion } from ${str(module)};

${doc("This module's protocol version.")}export const VERSION = ${str(version)};

${doc(`What ${entry.module} binds to ${version}.`)}export const { ${joinCode(entry.exports.map(ident), ', ')} } = forVersion(VERSION);
`;
}

/** `src/generated/latest.ts`, what the package's root re-exports: the latest version's entry point. */
export function emitLatest({ manifest }: LoadedManifest): Code | undefined {
  if (!manifest.entry) return undefined;
  return ts`${doc(`${manifest.title}, latest version (${manifest.latest}): its entry point.`)}export * from ${str(`./${manifest.latest}/entry.js`)};
`;
}
