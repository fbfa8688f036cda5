/**
 * Fixie Agent Protocol 1.0: the generated types, validators, Hono stubs and client, plus the few-shot grammar, the
 * code-shot and standalone agent factories (with bearer-token checks) and a client that reads YAML and JSON.
 */

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
  createCodeShotAgent,
  createStandaloneAgent,
  FixieDefinitionError,
  type FixieFunction,
  type FunctionResult,
  type StandaloneAgentDefinition,
  toResponse,
} from './agent/create-agent.js';
export {
  checkMetadata,
  createClient,
  type FixieClient,
  type FixieClientOptions,
  FixieError,
} from './client/fixie-client.js';
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
export * from './generated/1.0/index.js';

/** This module's protocol version. */
export const VERSION = '1.0';
