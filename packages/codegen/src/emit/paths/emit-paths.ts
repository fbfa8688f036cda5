import type { ProtocolModel } from '../../model/protocol-model.js';
import { doc, str } from '../code.js';

/**
 * Emits `paths.ts`: every path template of the version's HTTP surface, sorted. Tools that need the surface's shape
 * without its server (the conformance kit telling a base URL from one of the agent's own routes) read it.
 */
export function emitPaths(model: ProtocolModel): string {
  const paths = [...new Set(model.operations.map((op) => op.path))].sort();
  return `${doc(`The path templates of the ${model.title} ${model.version} HTTP surface, relative to the agent's root.`)}export const PATHS = [${paths.map(str).join(', ')}] as const;\n`;
}
