// Reads a side's OpenRPC document into what the JSON-RPC differ compares: each method by name, with its params (by
// name), its result schema, its stream framing and its error codes, each with where it is written. References are
// followed here, and schemas rewritten to name the side's types by `$id`, so the parts compare plain values.
import { escapePointerToken } from '../../diagnostics.js';
import { documentContext } from '../../model/references.js';
import { isRecord } from '../../util/json.js';
import type { DiffSide } from '../diff-types.js';
import { documentOf, typeModels } from './type-models.js';

/** One method of an OpenRPC document, as the differ compares it. */
export interface RpcMethod {
  pointer: string;
  params: Map<string, { required: boolean; schema: Record<string, unknown>; pointer: string }>;
  result: Record<string, unknown>;
  /** The media type of the method's stream of answers (`x-stream`), when it streams. */
  stream: string | undefined;
  /** The error codes the method declares, each with its message and where it is. */
  errors: Map<number, { message: string; pointer: string }>;
}

/** The methods of a side's OpenRPC document, by name. */
export function methodTable(side: DiffSide): Map<string, RpcMethod> {
  const doc = documentOf(side.openrpc);
  const ctx = documentContext(doc, typeModels(side));
  const list = (Array.isArray(doc.methods) ? doc.methods : []).map(ctx.deref).filter(isRecord);
  return new Map(
    list.map((m, i) => {
      const params = (Array.isArray(m.params) ? m.params : []).map(ctx.deref).filter(isRecord);
      const result = ctx.deref(m.result);
      const errors = (Array.isArray(m.errors) ? m.errors : []).map(ctx.deref).filter(isRecord);
      return [
        String(m.name),
        {
          pointer: `/methods/${i}`,
          params: new Map(
            params.map((p, j) => [
              String(p.name),
              {
                required: p.required === true,
                schema: ctx.toIdRefs(isRecord(p.schema) ? p.schema : {}),
                pointer: `/methods/${i}/params/${j}`,
              },
            ]),
          ),
          result: ctx.toIdRefs(isRecord(result) && isRecord(result.schema) ? result.schema : {}),
          stream: typeof m['x-stream'] === 'string' ? m['x-stream'] : undefined,
          errors: new Map(
            errors
              .filter((e): e is Record<string, unknown> & { code: number } => typeof e.code === 'number')
              .map((e, j) => [
                e.code,
                { message: String(e.message ?? ''), pointer: `/methods/${i}/errors/${j}` },
              ]),
          ),
        },
      ] as const;
    }),
  );
}

/** An error code the document declares for every method (`components.errors`), with its name and where it is. */
export interface DocumentError {
  name: string;
  message: string;
  pointer: string;
}

/** The error codes a side's OpenRPC document declares for any method to answer with (`components.errors`), by code. */
export function documentErrors(side: DiffSide): Map<number, DocumentError> {
  const doc = documentOf(side.openrpc);
  const ctx = documentContext(doc, typeModels(side));
  const components = isRecord(doc.components) ? doc.components : {};
  const errors = isRecord(components.errors) ? components.errors : {};
  const out = new Map<number, DocumentError>();
  for (const [name, raw] of Object.entries(errors)) {
    const e = ctx.deref(raw);
    if (!isRecord(e) || typeof e.code !== 'number' || out.has(e.code)) continue;
    out.set(e.code, {
      name,
      message: String(e.message ?? ''),
      pointer: `/components/errors/${escapePointerToken(name)}`,
    });
  }
  return out;
}
