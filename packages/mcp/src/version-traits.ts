// What differs between MCP revisions, as data: each revision's traits are in schemas/mcp/protocol.yaml (generated
// into src/generated/versions.ts), and this module says what each trait means. Code asks a trait, never a revision's
// name, so a revision added with `agentproto version add` behaves as the one it was copied from.
import { isVersion, TRAITS, VERSIONS, type Version } from './generated/versions.js';

/** The MCP revisions this package speaks: those schemas/mcp/protocol.yaml lists. */
export type McpVersion = Version;

/** What one MCP revision does its own way. */
export interface McpTraits {
  /**
   * A connection opens with `initialize` and `notifications/initialized`, and a server may keep a session
   * (`Mcp-Session-Id`); else every request is on its own, carrying its revision and capabilities in `_meta`, and
   * `server/discover` says what the server supports.
   */
  handshake: boolean;
  /** Every result says `resultType` (`complete`, or `input_required` for a multi-round-trip request). */
  resultType: boolean;
  /** The results of the list methods and of `resources/read` say how long they may be cached (`ttlMs`, `cacheScope`). */
  cacheableResults: boolean;
  /** Each POST repeats its method and name in headers (`Mcp-Method`, `Mcp-Name`), and always names its revision. */
  requestHeaders: boolean;
  /**
   * A server asks the client for input (sampling, elicitation, roots) by answering `input_required`, and the client
   * retries the request with `inputResponses` and the server's `requestState`; else the server sends its request on
   * the answer's stream and the client replies in a POST of its own.
   */
  inputRequired: boolean;
  /**
   * A request that needs a capability the client did not declare is refused with the revision's own error (-32021,
   * `data.requiredCapabilities`, HTTP 400); else the work fails as any other would.
   */
  capabilityError: boolean;
}

/**
 * Every revision's traits. Typed here rather than inferred: a revision whose manifest entry lacks a trait (or has one
 * of the wrong type) fails the type check at this line.
 */
export const VERSION_TRAITS: Readonly<Record<McpVersion, McpTraits>> = TRAITS;

/** The revisions, in the manifest's order. */
export const MCP_VERSIONS: readonly McpVersion[] = VERSIONS;

/** A revision name checked against those this package speaks; throws naming them otherwise. */
export function mcpVersion(name: string): McpVersion {
  if (isVersion(name)) return name;
  throw new Error(`MCP has no revision "${name}" here: ${VERSIONS.join(', ')}`);
}
