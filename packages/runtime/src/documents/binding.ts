import type { StreamCheck } from '../streams/stream-check.js';
import type { Validator } from '../validation.js';

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
  protocol: string;
  version: string;
  /** One standalone validator per public type, by type name. */
  validators: Readonly<Record<string, Validator>>;
  /** The check of a whole stream (items typed by their discriminator, plus the ordering rules), if it streams. */
  streamCheck?: () => StreamCheck;
  /** The path templates of the HTTP surface (`/tasks/{task_id}`), relative to the agent's root. */
  paths?: readonly string[];
  /** Rules over whole documents, by type name, beyond the schemas. */
  documentRules?: Readonly<Record<string, DocumentRule>>;
}
