// One HTTP operation on both sides, as the parts of the HTTP differ (parameters, request body, responses) see it:
// the documents, where the operation is written, and how a finding of it is recorded. Its own file so that each part
// depends on this and not on the others.
import { escapePointerToken } from '../../diagnostics.js';
import type { OperationModel } from '../../model/protocol-model.js';
import type { ModelContext } from '../../model/references.js';
import { isRecord } from '../../util/json.js';
import type { Witness } from '../diff-types.js';
import type { FoundChange } from '../schema/found-change.js';
import type { Findings, Pair, SurfaceFinding } from './surface-finding.js';

/** An operation both sides declare, with the documents it is read from and where its findings go. */
export interface OperationPair {
  out: Findings;
  docs: Pair<Record<string, unknown>>;
  ctx: Pair<ModelContext>;
  /** The operation's identity on both sides (`POST /tasks/{}`). */
  key: string;
  /** How findings name it: the new side's method and path. */
  name: string;
  o: OperationModel;
  n: OperationModel;
}

/** Where an operation is written in its OpenAPI document. */
export function opPointer(op: OperationModel): string {
  return `/paths/${escapePointerToken(op.path)}/${op.method}`;
}

/**
 * Where an operation is written in its OpenAPI document: its path item (`paths[path]`) and its operation object
 * (`paths[path][method]`), each `{}` when the document has no object there.
 */
export function operationObject(
  doc: Record<string, unknown>,
  op: OperationModel,
): { item: Record<string, unknown>; operation: Record<string, unknown> } {
  const member = (parent: Record<string, unknown>, key: string): Record<string, unknown> => {
    const value = parent[key];
    return isRecord(value) ? value : {};
  };
  const item = member(member(doc, 'paths'), op.path);
  return { item, operation: member(item, op.method) };
}

/** Records a finding of the OpenAPI document that no schema walk found (so it has no mutations). */
export function pushHttp(
  out: SurfaceFinding[],
  f: Omit<FoundChange, 'area' | 'mutations'> & { area: FoundChange['area'] },
  extra: Partial<SurfaceFinding> = {},
): void {
  out.push({ found: { mutations: [], ...f }, document: 'openapi', ...extra });
}

/** The witness of a change a lookup proves: a message the rejecting document declares nothing for. */
export function lookup(
  breaks: 'receivers' | 'senders',
  subject: string,
  message: unknown,
  missing: string,
): Witness[] {
  return [{ breaks, subject, message, rejection: missing }];
}
