// What differs between AgentScope versions, as data: each version's traits are in schemas/agentscope/protocol.yaml
// (generated into src/generated/versions.ts), and this module says what each trait means. Code asks a trait, never
// a version's name, so a version added with `agentproto version add` behaves as the version it was copied from.
import { isVersion, TRAITS, VERSIONS, type Version } from './generated/versions.js';

/** The AgentScope versions this package speaks: those schemas/agentscope/protocol.yaml lists. */
export type AgentScopeVersion = Version;

/** What one AgentScope version does its own way. */
export interface AgentScopeTraits {
  /** Every event carries an integer `sequence_number`, greater than the one before (1.x); else a decimal string. */
  integerSequence: boolean;
  /** A server may refuse inside the stream with a bare `{"error": …}` frame, an ErrorFrame (1.x). */
  errorFrames: boolean;
  /** Messages may have the `tool` role: what a tool said, and function outputs, are the tool's (1.x). */
  toolRole: boolean;
  /** A `function_call_output` message's data carries the function's `name` (1.x). */
  functionOutputName: boolean;
  /** Messages carry `usage` and `metadata` (1.x). */
  messageMetadata: boolean;
  /** `GET /health` and `GET /` answer as upstream's 1.x AgentApp: mode, runner, the service and its endpoints. */
  runnerInfo: boolean;
}

/**
 * Every version's traits. Typed here rather than inferred: a version whose manifest entry lacks a trait (or has one
 * of the wrong type) fails the type check at this line.
 */
export const VERSION_TRAITS: Readonly<Record<AgentScopeVersion, AgentScopeTraits>> = TRAITS;

/** The versions, in the manifest's order. */
export const AGENTSCOPE_VERSIONS: readonly AgentScopeVersion[] = VERSIONS;

/** A version name checked against the versions this package speaks; throws naming them otherwise. */
export function agentScopeVersion(name: string): AgentScopeVersion {
  if (isVersion(name)) return name;
  throw new Error(`AgentScope has no version "${name}": ${VERSIONS.join(', ')}`);
}
