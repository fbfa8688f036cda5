// The revision a request is answered in: its MCP-Protocol-Version header, or, without one, the latest revision with a
// handshake (whose `initialize` comes before any header can be agreed).
import type { Step } from '@agentproto/runtime';
import { isVersion } from '../../generated/versions.js';
import type { McpVersion } from '../../version-traits.js';
import { MCP_TRANSPORT_ERRORS, type PostState, refuse } from './post-state.js';

/**
 * Leaves the revision in `state.era`. A header naming a revision not served is 400 with -32022 and the revisions that
 * are; no header where no revision with a handshake is served is 400 too.
 */
export function pickRevision(
  versions: readonly McpVersion[],
  handshake: readonly McpVersion[],
): Step<PostState> {
  return (c, state) => {
    const header = c.req.header('mcp-protocol-version');
    const id = state.message?.id;
    if (header !== undefined && !(isVersion(header) && versions.includes(header)))
      return refuse(
        400,
        MCP_TRANSPORT_ERRORS.unsupportedProtocolVersion,
        'Unsupported protocol version',
        { supported: versions, requested: header },
        id,
      );
    const era = header ?? handshake.at(-1);
    if (era === undefined)
      return refuse(
        400,
        MCP_TRANSPORT_ERRORS.headerMismatch,
        'Bad Request: no MCP-Protocol-Version header',
        undefined,
        id,
      );
    state.era = era;
    return undefined;
  };
}
