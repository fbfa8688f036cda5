// The kit's report types: each check's result and the run's report (schemas/conformance/report/).
export type { CheckDefinition, Level } from '@agentproto/runtime/contract';

import type { Level } from '@agentproto/runtime/contract';
import type { CoverageRow } from './coverage.js';

/**
 * The outcome of one check. `blocked`: not run, because the agent does not answer as the protocol at all (the suite's
 * probe check failed, and says why once): a check that could not be tried, not one the agent failed.
 */
export type Status = 'pass' | 'fail' | 'skip' | 'blocked';

/** One check's result, as reported. */
export interface CheckResult {
  id: string;
  level: Level;
  status: Status;
  /** Why it failed, was skipped or is blocked; what it saw when it passed. */
  message: string;
  ref: string;
  /** The check failed, but the expected-failures file lists it: a warning, not a failure. */
  expectedFailure?: boolean;
  /** The expected-failures file lists it, yet it passed: the entry is stale, and the run fails. */
  staleExpectation?: boolean;
}

/** The whole run, as the JSON reporter writes it (schemas/conformance/report/ConformanceReport.schema.json). */
export interface Report {
  protocol: string;
  version: string;
  /** The base URL checked, or `app` for an in-memory app. */
  target: string;
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    /** Checks not run because the agent does not answer as the protocol (see `diagnosis`). */
    blocked: number;
    /** Failures the expected-failures file accounts for (not counted in `failed`). */
    expectedFailures: number;
    /** Expected-failures entries whose check passed. */
    staleExpectations: number;
    /** Messages (bodies and stream events) validated against the protocol's schemas. */
    messagesValidated: number;
  };
  checks: CheckResult[];
  /**
   * Why the agent does not answer as the protocol, once: the probe's request and its answer
   * (`http://127.0.0.1:8000 does not answer as a2a@1.0: GET /.well-known/agent-card.json → 404 text/html`). Present
   * only when the checks after the probe are blocked.
   */
  diagnosis?: string;
  /** The version's requirements and the checks that cover them, with how each fared (with `coverage: true`). */
  coverage?: CoverageRow[];
}

/** What the kit needs of a protocol version: its validators and stream check (the runtime's shape). */
export type { ProtocolBinding } from '@agentproto/runtime/contract';

/** Thrown by a check to fail or skip it; defined with the suite contract in the runtime. */
export { CheckFailure, CheckSkipped } from '@agentproto/runtime/contract';
