/**
 * The conformance kit: checks a live agent (or an app in memory) against its protocol. Every answer and stream event
 * is validated against the schemas; each check has an id, a level and a reference; known failures can be expected.
 */

// The registry the kit resolves `--protocol` through, for a kit user who needs a binding or a suite directly.
export {
  type KnownProtocol,
  knownProtocols,
  RegistryLookupError,
  resolveBinding,
  resolveSuite,
} from '@agentproto/registry';
export {
  type ClientConformanceOptions,
  type ClientExit,
  clientChecks,
  clientRequirementsCoverage,
  DEFAULT_CLIENT_TIMEOUT_MS,
  type InProcessClient,
  MAX_CLIENT_OUTPUT_BYTES,
  runClientConformance,
} from './client/run-client.js';
export {
  CLIENT_REQUESTS_REQUIREMENT,
  CLIENT_SCENARIOS_FILE,
  type ClientScenario,
  type ClientScenarioFile,
  loadClientScenarios,
} from './client/scenarios.js';
export { MAX_RECORDED_REQUESTS } from './client/scripted-agent.js';
export {
  type ConformanceOptions,
  DEFAULT_TIMEOUT_MS,
  requirementsCoverage,
  runConformance,
  TargetUnreachable,
  withHeaders,
} from './conformance.js';
export { DEFAULT_FUZZ_TIME_MS, type FuzzOptions, fuzzChecks } from './fuzz/fuzz.js';
export { type CoverageRow, type CoverageSide, coverageOf, coverageProblems } from './kit/coverage.js';
export { DEFAULT_CHECK_DEADLINE_MS, DEFAULT_DEADLINE_MS } from './kit/deadlines.js';
export {
  applyExpectedFailures,
  type ExpectedFailures,
  ExpectedFailuresError,
  parseExpectedFailures,
} from './kit/expected-failures.js';
export { type LevelFilter, passed, type Suite } from './kit/run.js';
export type { CheckDefinition, CheckResult, Level, Report, Status } from './kit/types.js';
export { ConformanceUsageError } from './kit/usage-error.js';
export { type ReporterName, render, renderCoverage, resultLine } from './reporters/reporters.js';
