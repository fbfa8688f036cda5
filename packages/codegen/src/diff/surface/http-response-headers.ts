// The headers of a response both sides declare (OpenAPI 3.1 Response Object `headers`), by lower-cased name as a
// request's header parameters are: one added or gone, made required or optional, and the schema of one both sides
// have. The witnesses are header sets (name → value) checked against each side's declared headers, through the same
// search and validators as a schema change's: a header a side does not declare may carry any string.
import { escapePointerToken } from '../../diagnostics.js';
import { isRecord } from '../../util/json.js';
import type { Breaks } from '../diff-types.js';
import { type Mutation, WITNESS_KEY } from '../schema/found-change.js';
import { drop } from '../schema/mutations.js';
import type { OperationPair } from './http-pair.js';
import { type Pair, schemaFindings, union } from './surface-finding.js';

/** One declared response header: whether it is required, its schema, where it is written. */
interface ResponseHeader {
  required: boolean;
  schema: Record<string, unknown>;
  pointer: string;
}

// Header values to try where a side no longer constrains a header: an empty value, a space, a made-up word. One of
// them breaks most patterns, formats and enums.
const VALUES = ['', ' ', WITNESS_KEY];

/** Every response header added or removed, made required or optional, or whose schema changed, for one status. */
export function responseHeaderChanges(
  pair: OperationPair,
  status: string,
  responses: Pair<unknown>,
  pointers: Pair<string>,
): void {
  const { out, ctx, name } = pair;
  const read = (side: 'old' | 'new'): Map<string, ResponseHeader> => {
    const response = ctx[side].deref(responses[side]);
    const headers = isRecord(response) && isRecord(response.headers) ? response.headers : {};
    const found = new Map<string, ResponseHeader>();
    for (const [header, raw] of Object.entries(headers)) {
      const h = ctx[side].deref(raw);
      // OpenAPI 3.1 §4.8.17: a response's `Content-Type` header definition is ignored.
      if (!isRecord(h) || header.toLowerCase() === 'content-type') continue;
      found.set(header.toLowerCase(), {
        required: h.required === true,
        schema: ctx[side].toIdRefs(isRecord(h.schema) ? h.schema : {}),
        pointer: `${pointers[side]}/headers/${escapePointerToken(header)}`,
      });
    }
    return found;
  };
  const before = read('old');
  const after = read('new');
  if (before.size === 0 && after.size === 0) return;
  const schema = { old: headerSet(before), new: headerSet(after) };
  const subject = { name: `${name} ${status} headers`, schema };
  const location = { steps: [], old: schema.old, new: schema.new };
  const push = (
    rule: string,
    message: string,
    expect: Breaks,
    at: { oldPointer: string; newPointer: string },
    mutations: Mutation[],
  ) =>
    out.push({
      found: { rule, area: 'response', subject: name, message, ...at, expect, location, mutations },
      document: 'openapi',
      subject,
    });
  for (const header of union(before.keys(), after.keys())) {
    const p = before.get(header);
    const q = after.get(header);
    const at = {
      oldPointer: p?.pointer ?? `${pointers.old}/headers`,
      newPointer: q?.pointer ?? `${pointers.new}/headers`,
    };
    if (p && !q)
      // A receiver that reads the header meets responses without it, or with a value the old document forbids.
      push(
        'response-header-removed',
        `${status}: response header \`${header}\` is gone${p.required ? ' (it was required)' : ''}`,
        'receivers',
        at,
        [drop('new', header), ...VALUES.map((v) => withValue('new', header, v))],
      );
    else if (!p && q)
      push(
        'response-header-added',
        `${status}: response header \`${header}\` is new${q.required ? ' and required' : ''}`,
        q.required ? 'senders' : 'none',
        at,
        q.required ? [drop('old', header)] : [],
      );
    else if (p && q) {
      if (p.required !== q.required)
        push(
          q.required ? 'response-header-required' : 'response-header-optional',
          `${status}: response header \`${header}\` is ${q.required ? 'now required' : 'no longer required'}`,
          q.required ? 'senders' : 'receivers',
          at,
          [drop(q.required ? 'old' : 'new', header)],
        );
      schemaFindings(
        out,
        'openapi',
        `${name} ${status} header ${header}`,
        'response',
        p.schema,
        q.schema,
        `${p.pointer}/schema`,
        `${q.pointer}/schema`,
      );
    }
  }
}

/** The headers of a response as one object: the declared ones by lower-cased name, any other a string. */
function headerSet(headers: Map<string, ResponseHeader>): Record<string, unknown> {
  const required = [...headers].filter(([, h]) => h.required).map(([n]) => n);
  return {
    type: 'object',
    properties: Object.fromEntries([...headers].map(([n, h]) => [n, h.schema])),
    additionalProperties: { type: 'string' },
    ...(required.length > 0 ? { required } : {}),
  };
}

/** Sets one header of the header set to a value. */
function withValue(accept: 'old' | 'new', key: string, value: string): Mutation {
  return { accept, key, apply: (node) => (isRecord(node) ? { ...node, [key]: value } : node) };
}
