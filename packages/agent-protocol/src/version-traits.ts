// What differs between Agent Protocol versions, as data: each version's traits are in
// schemas/agent-protocol/protocol.yaml (generated into src/generated/versions.ts), and this module says what each
// trait means. Code asks a trait, never a version's name, so a version added with `agentproto version add` behaves
// as the version it was copied from.
import { isVersion, TRAITS, VERSIONS, type Version } from './generated/versions.js';

/** What one Agent Protocol version does its own way (its `traits` in schemas/agent-protocol/protocol.yaml). */
export interface AgentProtocolTraits {
  /**
   * A step may end `awaiting_input` to ask the user (the extension): the suite runs the RFC's dialogue, and the
   * cutting-board agent serves the version.
   */
  awaitingInput: boolean;
}

/**
 * Every version's traits. Typed here rather than inferred: a version whose manifest entry lacks a trait (or has one
 * of the wrong type) fails the type check at this line.
 */
export const VERSION_TRAITS: Readonly<Record<Version, AgentProtocolTraits>> = TRAITS;

/** A version name checked against the versions this package speaks; throws naming them otherwise. */
export function agentProtocolVersion(name: string): Version {
  if (isVersion(name)) return name;
  throw new Error(`Agent Protocol has no version "${name}": ${VERSIONS.join(', ')}`);
}
