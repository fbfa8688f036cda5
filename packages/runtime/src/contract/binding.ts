// The binding: one protocol version as every tool sees it (validators, paths, stream check, document rules, suite,
// project template, reference agent). Each protocol package's binding is generated from its manifest
// (schemas/<id>/protocol.yaml).
import type { AgentStore } from '../stores/agent-store.js';
import type { StreamCheck } from '../streams/stream-check.js';
import type { Validator } from '../validation.js';
import type { Requirement, Suite } from './suite.js';
import type { Surface } from './surface.js';

/** One issue a protocol rule finds in a whole document: where (a JSON pointer), what, and which rule. */
export interface DocumentIssue {
  pointer: string;
  message: string;
  rule: string;
}

/**
 * A protocol rule over a whole document of one type, for what JSON Schema cannot say (Fixie's few-shot grammar, for
 * one). It runs once the document has passed its schema.
 */
export type DocumentRule = (value: unknown) => DocumentIssue[];

/**
 * What checking messages of one protocol version needs, and nothing more: no server, no client. Each protocol
 * package exports one per version (`@agentproto/<protocol>/<version>/binding`), so a command that only validates
 * loads the validators of the version asked for and never the HTTP stack.
 */
export interface ProtocolBinding {
  /** The protocol's id (`schemas/<id>/`), as `--protocol` takes it. */
  protocol: string;
  version: string;
  /** What the protocol version is called in prose (`Agent Protocol v1`). */
  title: string;
  /** The npm package that holds the protocol's code (`@agentproto/fixie`). */
  package: string;
  /** One standalone validator per public type, by type name. */
  validators: Readonly<Record<string, Validator>>;
  /** The check of a whole stream (items typed by their discriminator, plus the ordering rules), if it streams. */
  streamCheck?: () => StreamCheck;
  /** The path templates of the HTTP surface (`/tasks/{task_id}`), relative to the agent's root. */
  paths?: readonly string[];
  /** Rules over whole documents, by type name, beyond the schemas. */
  documentRules?: Readonly<Record<string, DocumentRule>>;
  /**
   * The discovery documents that name the agent's own URLs (a card listing the agent's endpoints), by type name, with
   * where those URLs are: JSON pointers in which a `*` token stands for every index or key. `agentproto proxy` points
   * them at itself, so a client configured from the document keeps going through it.
   */
  discoveryUrls?: Readonly<Record<string, readonly string[]>>;
  /** The HTTP surface as data (operations, parameters, bodies, responses, schemas), loaded only when asked for. */
  surface?: () => Promise<Surface>;
  /** The normative statements of this version (its `requirements.yaml`), which the suite's checks cover. */
  requirements?: readonly Requirement[];
  /**
   * What this version requires of a client (its `client-requirements.yaml`), which the client scenarios' checks
   * (`agentproto conformance --client`) cover.
   */
  clientRequirements?: readonly Requirement[];
  /** The protocol's conformance suite for this version, loaded only when asked for (it is the kit's, not a validator's). */
  suite?: () => Promise<Suite>;
  /** What `agentproto new` writes for an agent of this version, if the package has a project template. */
  template?: ProjectTemplate;
  /**
   * The package's reference agent for this version, which `agentproto serve` starts: a known-good agent to point a
   * client at. Loaded only when asked for (it is a server).
   */
  referenceAgent?: () => Promise<ReferenceAgent>;
}

/** A protocol version's reference agent, as `agentproto serve` starts it. */
export interface ReferenceAgent {
  /** The agents it can serve, by the name `--agent` takes; the first is the default. */
  agents: readonly string[];
  /** The port its `start` script listens on by default. */
  port: number;
  /** Whether it keeps state in an AgentStore (`--store`); one that does not refuses a store. */
  keepsState: boolean;
  /** Serves an agent on 127.0.0.1 (port 0 picks a free one); resolves once it listens. */
  start(options: ReferenceAgentOptions): Promise<StartedReferenceAgent>;
  /**
   * The options its start takes beyond the port, the agent and the store, by name as `--<name> <value>` spells them
   * (A2A's `sign-card`, `push-allow`), each with what it does: `agentproto serve` takes them and passes their values.
   */
  options?: Readonly<Record<string, ReferenceAgentOption>>;
}

/** A value of a reference agent's own option that it cannot use (a key file that holds no key): `start` rejects with it. */
export class ReferenceAgentOptionError extends Error {
  override name = 'ReferenceAgentOptionError';
}

/** An option of a reference agent's own. */
export interface ReferenceAgentOption {
  /** What its value is, for help and errors (`<private-jwk-file>`). */
  value: string;
  /** What it does, in one line. */
  description: string;
  /** Whether it may be given more than once. */
  repeatable?: boolean;
}

/** How to start a reference agent. */
export interface ReferenceAgentOptions {
  port: number;
  /** One of `agents` (default: the first). */
  agent?: string;
  /** Where it keeps its state (default: memory), when it keeps any. */
  store?: AgentStore;
  /** The values given for its own `options`, by name (a repeatable one's in order; one value otherwise). */
  values?: Readonly<Record<string, readonly string[]>>;
}

/** A reference agent that listens. */
export interface StartedReferenceAgent {
  /** Its root URL (`http://127.0.0.1:8090`): what a client or `agentproto conformance` takes. */
  url: string;
  /** What listens where, for the person who started it (`AgentScope 1.1 reference agent listening on …`). */
  banner: string;
  /** Stops listening (open connections are cut). */
  close(): Promise<void>;
}

/**
 * A protocol version's project template: the files of a new agent's `src/` (real TypeScript in the protocol's
 * package, type-checked with it, copied as they are), and what the new project's README says about them.
 */
export interface ProjectTemplate {
  /** The folder whose files become the project's `src/`; it holds `agent.ts`, which exports the agent as `app`. */
  dir: URL;
  /** What the README says the agent does and where to extend it (Markdown). */
  extend: string;
  /** Packages the project depends on beyond those its files import (a package it is meant to use next). */
  dependencies: readonly string[];
}
