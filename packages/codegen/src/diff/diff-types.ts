// The data of a diff: the two sides compared (each a set of named types, with the HTTP and JSON-RPC surfaces when the
// side has them), and the changes found, each with where it is on both sides, whom it breaks and the message that
// proves it.
import type { Locator } from '@agentproto/runtime/locate';

/** A JSON or YAML document of one side, with its file and a way to find the line of a pointer. */
export interface SideDocument {
  /** The file, as the report names it. */
  file: string;
  value: unknown;
  locate?: Locator;
}

/** One side of a diff: what `agentscope@0.1`, a folder of schemas or an exported bundle holds. */
export interface DiffSide {
  /** How the report names the side (`agentscope@0.1`, a path). */
  label: string;
  /** The named types, by name: one schema each, with its `$id` and its pointer in its file ('' for a file of its own). */
  types: Map<string, SideDocument & { id: string; at: string }>;
  /** The HTTP surface (OpenAPI), when the side has one. */
  openapi?: SideDocument;
  /** The JSON-RPC surface (OpenRPC), when the side has one. */
  openrpc?: SideDocument;
  /** The side's example messages, by type name: the first bases a witness is built on. */
  examples: Map<string, unknown[]>;
}

/**
 * Whom a change breaks. `receivers`: some message valid under the new schemas is rejected by the old ones (an old
 * receiver meets a new sender). `senders`: some message valid under the old schemas is rejected by the new ones (a new
 * receiver meets an old sender). `both`, or `none`.
 */
export type Breaks = 'receivers' | 'senders' | 'both' | 'none';

/** Where a change sits on one side. */
export interface ChangeSite {
  file: string;
  /** JSON pointer into the file. */
  pointer: string;
  line?: number;
}

/** A message that one side accepts and the other rejects, checked with both sides' validators. */
export interface Witness {
  /** `receivers`: the new side accepts it and the old one rejects it; `senders`: the other way round. */
  breaks: 'receivers' | 'senders';
  /** What the message is: a type's name, or the schema it was checked against (`POST /process request body`). */
  subject: string;
  message: unknown;
  /** Why the rejecting side rejected it: the validator's first error at the change, as `pointer: message`. */
  rejection: string;
}

/** One change between the two sides. */
export interface Change {
  /** The rule that found it (`enum-value-added`, `property-removed`, `operation-added`, …). */
  rule: string;
  /** What it is about: a type, or an operation, parameter, response, media type or method of a surface. */
  area: 'type' | 'operation' | 'parameter' | 'response' | 'media-type' | 'stream-item' | 'method';
  /** The type or operation it belongs to (`Message`, `POST /process`, `message/send`). */
  subject: string;
  message: string;
  old?: ChangeSite;
  new?: ChangeSite;
  /** Whom it breaks: what the rule says, joined with what the witnesses show. */
  breaks: Breaks;
  /** True when every side it breaks has a witness (or it breaks no one and a message both sides accept shows it). */
  proven: boolean;
  /**
   * Why the search for a witness was undecided rather than empty: a message it built met a pattern the linear
   * engine cannot run (a backreference, a lookaround). Only on an unproven change.
   */
  undecided?: string;
  witnesses: Witness[];
}

/** What `diff` found. */
export interface DiffReport {
  old: string;
  new: string;
  summary: { changes: number; receivers: number; senders: number; none: number; unproven: number };
  changes: Change[];
}
