/** How strongly the protocol asks for what a check tests (RFC 2119). */
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** The outcome of one check. */
export type Status = 'pass' | 'fail' | 'skip';

/** What a check is: its id, its level, what it tests, and the sentence or upstream behaviour it enforces. */
export interface CheckDefinition {
  id: string;
  level: Level;
  title: string;
  /** Where the rule comes from: a sentence of the spec, a DECISIONS entry, or an upstream behaviour. */
  ref: string;
}

/** One check's result, as reported. */
export interface CheckResult {
  id: string;
  level: Level;
  status: Status;
  /** Why it failed or was skipped; what it saw when it passed. */
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
    /** Failures the expected-failures file accounts for (not counted in `failed`). */
    expectedFailures: number;
    /** Expected-failures entries whose check passed. */
    staleExpectations: number;
    /** Messages (bodies and stream events) validated against the protocol's schemas. */
    messagesValidated: number;
  };
  checks: CheckResult[];
}

/** What the kit needs of a protocol version: its validators and stream check (the runtime's shape). */
export type { ProtocolBinding } from '@agentproto/runtime/documents';

/** A check that fails: the message says what was sent, where the answer went wrong, and what was expected. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

/** A check that does not apply: the agent does not claim the capability it needs. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped';
}
