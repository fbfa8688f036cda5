// The versions of A2A this package speaks, as data: src/generated/versions.ts lists them (from
// schemas/a2a/protocol.yaml) with their traits, src/generated/translations.ts says which are served through a
// translation, and src/generated/modules.ts holds each one's generated code. Code that depends on a version looks it
// up here by name, never by comparing names, so a version added with `agentproto version add` behaves as the version
// it was copied from.
import type { Validator } from '@agentproto/runtime/contract';
import type { Translator } from '@agentproto/runtime/translate';
import { GENERATED } from './generated/modules.js';
import { TRANSLATIONS } from './generated/translations.js';
import { isVersion, LATEST, TRAITS, VERSIONS, type Version } from './generated/versions.js';

/** What one A2A version does its own way: its `traits` in schemas/a2a/protocol.yaml. */
export interface A2aTraits {
  /** The type names a stream's events are read with: JSON-RPC's envelopes, the event in them, HTTP+JSON's event. */
  rpcSuccess: string;
  rpcError: string;
  rpcStreamEvent: string;
  restStreamEvent: string;
  rpcResponse: string;
  restError: string;
  /** Whether a client of this version sends `A2A-Version` (1.0 §3.6.1; 0.3 predates the header). */
  sendsVersionHeader: boolean;
  /**
   * How a JSON-RPC streaming method answers an error met before its first event: `event`, a stream of that one error
   * response (0.3 §6.11: "for streaming methods, an SSE stream where each event's data is a JSONRPCResponse"), or
   * `json`, a plain JSON response as for a unary method (1.0 names no form; DECISIONS 21).
   */
  rpcStreamErrors: 'json' | 'event';
  /** Whether the card names this version's interfaces at its root (0.3 §5.5), beside `supportedInterfaces`. */
  cardRootInterfaces: boolean;
  /**
   * What a push notification to a config this version's client made carries: `streamResponse`, the update itself
   * (1.0 §4.3.3), or `task`, the task as it is then (0.3 §9.5 POSTs the Task object).
   */
  pushBody: 'streamResponse' | 'task';
  /** The Content-Type of such a push notification. */
  pushMediaType: string;
  /**
   * The id a push config this version's client makes without one gets: `taskId`, its task's id (0.3's default
   * config, which a get without a config id reads), or `uuid`, a new one (1.0 names none).
   */
  pushConfigIdWhenUnsaid: 'taskId' | 'uuid';
  /**
   * What a request (or card) that names no version speaks, by this version's rules: 1.0 §3.6.2, "Agents MUST
   * interpret empty value as 0.3 version". Typed as a version, so a name the manifest does not list fails here.
   */
  versionWhenUnsaid: Version;
}

/**
 * Every version's traits. Typed here rather than inferred: a version whose manifest entry lacks a trait, has one of
 * the wrong type, or a `versionWhenUnsaid` naming no listed version, fails the type check at this line.
 */
export const VERSION_TRAITS: Readonly<Record<Version, A2aTraits>> = TRAITS;

/** A version served through a translation: the version its handlers speak, and the codecs between the two. */
export interface Translation {
  to: Version;
  translator: Translator;
}

/** The translations by version served through one; a version without an entry is served natively. */
export const TRANSLATED: Readonly<Partial<Record<Version, Translation>>> = TRANSLATIONS;

/**
 * The version the one handler set (A2aOperations, the task manager, the client's types) is written in: every
 * translation's target, or the latest version when nothing is translated. Translations to two different versions
 * would need two handler sets: refused here, when the package loads.
 */
export const HANDLER_VERSION: Version = handlerVersion();

function handlerVersion(): Version {
  const targets = new Set(VERSIONS.flatMap((v) => TRANSLATED[v]?.to ?? []));
  if (targets.size > 1)
    throw new Error(
      `A2A's translations go to ${[...targets].join(' and ')}: one handler set speaks one version`,
    );
  return [...targets][0] ?? LATEST;
}

/** Every version served, newest first (the manifest lists them oldest first): each one the manifest lists. */
export const SERVED_VERSIONS: readonly Version[] = [...VERSIONS].reverse();

/** The versions served natively, newest first: those with no translation, on the handler version's wire. */
export const NATIVE_VERSIONS: readonly Version[] = SERVED_VERSIONS.filter((v) => !TRANSLATED[v]);

/** What a request that names no version speaks, by the rules of the handler version (1.0 §3.6.2: 0.3). */
export const VERSION_WHEN_UNSAID: Version = VERSION_TRAITS[HANDLER_VERSION].versionWhenUnsaid;

/** Whether `version` (`Major.Minor`) is served natively, by the handler set's own routes and methods. */
export function isNative(version: string): version is Version {
  return isVersion(version) && !TRANSLATED[version];
}

/** `Major.Minor` of a version as a header or card spells it (`0.3.0` is 0.3, §3.6.2); a bare major is `.0`. */
export function majorMinor(version: string): string {
  const [major, minor = '0'] = version.trim().split('.');
  return `${major}.${minor}`;
}

/** A version name checked against the versions this package speaks; throws naming them otherwise. */
export function a2aVersion(name: string): Version {
  if (isVersion(name)) return name;
  throw new Error(`A2A has no version "${name}": ${VERSIONS.join(', ')}`);
}

/** A version's standalone validators, by type name. */
export function validatorsOf(version: Version): Readonly<Record<string, Validator>> {
  // Each version's module exports one validator per type; the record view forgets which names each version has.
  const validators: Readonly<Record<string, Validator>> = GENERATED[version].validators;
  return validators;
}

/** Validator `type` of `version`; throws when the version has no such type (a check written for another dialect). */
export function validatorOf(version: Version, type: string): Validator {
  const validate = validatorsOf(version)[type];
  if (!validate) throw new Error(`A2A ${version} has no type ${type}`);
  return validate;
}
