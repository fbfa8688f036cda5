// The versions of A2A this package speaks, as data: src/generated/versions.ts lists them (from
// schemas/a2a/protocol.yaml) and src/generated/modules.ts holds each one's generated code. Code that depends on a
// version looks it up here by name, never by comparing names, so a version added with `agentproto version add`
// behaves as the version it was copied from.
import type { Validator } from '@agentproto/runtime/contract';
import { GENERATED } from './generated/modules.js';
import { isVersion, VERSIONS, type Version } from './generated/versions.js';

/** A version name checked against the versions this package speaks; throws naming them otherwise. */
export function a2aVersion(name: string): Version {
  if (isVersion(name)) return name;
  throw new Error(`A2A has no version "${name}": ${VERSIONS.join(', ')}`);
}

/** A version's standalone validators, by type name. */
export function validatorsOf(version: Version): Readonly<Record<string, Validator>> {
  // Each version's module exports one validator per type; the record view forgets which names each version has.
  return GENERATED[version].validators as unknown as Readonly<Record<string, Validator>>;
}

/** Validator `type` of `version`; throws when the version has no such type (a check written for another dialect). */
export function validatorOf(version: Version, type: string): Validator {
  const validate = validatorsOf(version)[type];
  if (!validate) throw new Error(`A2A ${version} has no type ${type}`);
  return validate;
}
