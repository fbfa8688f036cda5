// Emits `paths.ts`: the path templates of a version's HTTP surface, for tools that need its shape without a server.
import type { ProtocolModel } from '../../model/protocol-model.js';
import { type Code, doc, joinCode, str, ts } from '../code.js';

/**
 * Emits `paths.ts`: every path template of the version's HTTP surface, sorted. Tools that need the surface's shape
 * without its server (the conformance kit telling a base URL from one of the agent's own routes) read it.
 */
export function emitPaths(model: ProtocolModel): Code {
  const paths = [...new Set(model.operations.map((op) => op.path))].sort();
  return ts`${doc(`The path templates of the ${model.title} ${model.version} HTTP surface, relative to the agent's root.`)}export const PATHS = [${joinCode(paths.map(str), ', ')}] as const;\n`;
}
