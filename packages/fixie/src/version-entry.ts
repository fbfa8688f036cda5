// What `@agentproto/fixie/<version>` exports beyond the generated code. Each version's entry point
// (src/generated/<version>/entry.ts, generated from the manifest's `entry`) re-exports this module and binds
// `forVersion(version)`: the agent factories and the client, which check requests and answers against that version's
// own schemas. The few-shot grammar and the token checks are the same module in every entry point.
import { createCodeShotAgent, createStandaloneAgent } from './agent/create-agent.js';
import { checkMetadata, createClient, type FixieClientOptions } from './client/fixie-client.js';
import type { Version } from './generated/versions.js';

export {
  bearerAuth,
  FIXIE_AUDIENCES,
  type FixieTokenOptions,
  fixieTokenVerifier,
  type TokenVerifier,
  type VerifiedToken,
} from './agent/auth.js';
export {
  type CallContext,
  type CodeShotAgentDefinition,
  type CorpusFunction,
  FixieDefinitionError,
  type FixieFunction,
  type FunctionResult,
  type StandaloneAgentDefinition,
  toResponse,
} from './agent/create-agent.js';
export { type FixieClient, type FixieClientOptions, FixieError } from './client/fixie-client.js';
export {
  BUILT_IN_FUNCTIONS,
  FEW_SHOT_RULES,
  type FewShotIssue,
  type FewShotOptions,
  type FewShotRule,
  formatFewShotIssue,
  splitFewShots,
  validateFewShot,
  validateFewShots,
} from './few-shot/grammar.js';

/** What the entry point of `version` binds to it. */
export function forVersion(version: Version) {
  return {
    /** Builds a code-shot agent's Hono app; its routes check requests and answers against this version's schemas. */
    createCodeShotAgent: (definition: Parameters<typeof createCodeShotAgent>[0]) =>
      createCodeShotAgent(definition, version),
    /** Builds a standalone agent's Hono app, checked against this version's schemas. */
    createStandaloneAgent: (definition: Parameters<typeof createStandaloneAgent>[0]) =>
      createStandaloneAgent(definition, version),
    /** A client for an agent of this version: its answers are checked against this version's schemas. */
    createClient: (options: FixieClientOptions = {}) => createClient(options, version),
    /** Checks a handshake against this version's AgentMetadata and the few-shot grammar; one line per problem. */
    checkMetadata: (value: unknown) => checkMetadata(value, version),
  };
}
