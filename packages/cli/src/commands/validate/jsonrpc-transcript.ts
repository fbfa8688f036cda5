// A JSON-RPC transcript (`--format jsonrpc`): newline-delimited JSON-RPC 2.0 messages in both directions, as a stdio
// transport carries them (one message, or one batch, per line) or a log keeps them. Each message is held to JSON-RPC's
// envelope; each request and notification to the protocol's type for its method (the type whose `method` is that
// constant, and which requires an `id` for a request; else, for a method of the OpenRPC document, its params to the
// method's params); each response's result to the result type of the request it
// answers, matched by id (the method's result in the OpenRPC document, else the type named after the request:
// `XRequest` answers `XResult`). Requests go both ways on such a transport and each side numbers its own, so a
// response is matched to the latest unanswered request with its id.
import {
  check,
  eachNdjsonItem,
  type JsonSchemaObject,
  type ParsedFrame,
  type ProtocolBinding,
} from '@agentproto/runtime/contract';
import { got } from './got.js';
import type { InputIssue, ItemCount } from './reporters.js';

/** What the transcript checker knows of a protocol: the type of each method's messages, and of each result. */
interface MethodTypes {
  requests: Map<string, string>;
  notifications: Map<string, string>;
  /** The params of the OpenRPC document's methods, for a protocol whose types are the params, not the messages. */
  params: Map<string, string>;
  results: Map<string, string>;
  /** The public types of a result that is one of several (tools/call: CallToolResult or CreateTaskResult). */
  unions: Map<string, readonly string[]>;
  /** The properties each type requires at its root, by type name. */
  required: Map<string, readonly string[]>;
  /** Whether a line may hold a batch (false: the protocol takes none). */
  batches: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the method tables from a version's surface: its schemas and its OpenRPC methods. */
async function methodTypes(binding: ProtocolBinding): Promise<MethodTypes> {
  const surface = await binding.surface?.();
  const types: MethodTypes = {
    requests: new Map(),
    notifications: new Map(),
    params: new Map(),
    results: new Map(),
    unions: new Map(),
    required: new Map(),
    batches: surface?.rpc?.batches !== false,
  };
  for (const schema of surface?.schemas ?? []) {
    const name = typeof schema.title === 'string' ? schema.title : undefined;
    if (name && Array.isArray(schema.required))
      types.required.set(
        name,
        schema.required.filter((r): r is string => typeof r === 'string'),
      );
    const method = methodConst(schema);
    if (!name || method === undefined || !binding.validators[name]) continue;
    const required = Array.isArray(schema.required) ? schema.required : [];
    const table = required.includes('id') ? types.requests : types.notifications;
    if (!table.has(method)) table.set(method, name);
  }
  for (const m of surface?.rpc?.methods ?? []) {
    if (binding.validators[m.resultType]) types.results.set(m.name, m.resultType);
    const union = m.resultTypes?.filter((t) => binding.validators[t]);
    if (union && union.length === m.resultTypes?.length) types.unions.set(m.name, union);
    if (binding.validators[m.paramsType]) types.params.set(m.name, m.paramsType);
  }
  for (const [method, request] of types.requests) {
    const named = request.endsWith('Request') ? `${request.slice(0, -'Request'.length)}Result` : undefined;
    if (!types.results.has(method) && named && binding.validators[named]) types.results.set(method, named);
  }
  return types;
}

/** The constant a schema gives its `method` property, if it gives one. */
function methodConst(schema: JsonSchemaObject): string | undefined {
  const properties = schema.properties;
  if (!isObject(properties)) return undefined;
  const method = properties.method;
  return isObject(method) && typeof method.const === 'string' ? method.const : undefined;
}

/**
 * Checks a transcript; returns how many messages it read (a line that is not JSON, or an empty batch, counts as one)
 * and how many of them have an issue. Pointers are into each message.
 */
export async function validateJsonRpcTranscript(
  binding: ProtocolBinding,
  chunks: AsyncIterable<string | Uint8Array>,
  report: (issue: InputIssue) => void,
): Promise<ItemCount> {
  const types = await methodTypes(binding);
  if (types.requests.size === 0 && types.notifications.size === 0 && types.params.size === 0)
    throw new TranscriptUsageError(
      `${binding.protocol}@${binding.version} has no JSON-RPC methods to check a transcript against`,
    );
  // Unanswered requests by id (as JSON, so 1 and "1" differ), latest last.
  const pending = new Map<string, string[]>();
  let messages = 0;
  let invalid = 0;
  // Issues come message by message: the first issue of each message counts it invalid.
  let counted = 0;
  const found = (issue: InputIssue) => {
    if (counted !== messages) {
      counted = messages;
      invalid++;
    }
    report(issue);
  };
  const checkAs = (
    type: string,
    value: unknown,
    at: Omit<InputIssue, 'pointer' | 'message'>,
    prefix = '',
  ) => {
    const validator = binding.validators[type];
    if (!validator) return;
    for (const issue of check(validator, value))
      found({
        ...at,
        pointer: `${prefix}${issue.pointer}`,
        message: issue.message,
        ...got(value, issue.pointer),
        type,
      });
  };
  /**
   * A value that may be any of several types: valid when one of them takes it; otherwise the issues of the type it
   * comes closest to, named by that type, instead of every type's: of the types whose required members it has (a
   * CallToolResult's `content`, a CreateTaskResult's `task`), else of all, the one with the fewest issues.
   */
  const checkAsOneOf = (
    names: readonly string[],
    value: unknown,
    at: Omit<InputIssue, 'pointer' | 'message'>,
    prefix: string,
  ) => {
    // Valid as one of the types: nothing to say.
    if (names.some((name) => binding.validators[name]?.(value))) return;
    const has = (name: string) =>
      isObject(value) && (types.required.get(name) ?? []).every((k) => Object.hasOwn(value, k));
    const shaped = names.filter(has);
    let closest: string | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const name of shaped.length > 0 ? shaped : names) {
      const validator = binding.validators[name];
      if (!validator) continue;
      const issues = check(validator, value).length;
      if (issues < fewest) {
        fewest = issues;
        closest = name;
      }
    }
    if (closest) checkAs(closest, value, at, prefix);
  };
  const onMessage = (message: unknown, at: Omit<InputIssue, 'pointer' | 'message'>, base: string) => {
    messages++;
    const rule = (pointer: string, text: string) =>
      found({
        ...at,
        pointer: `${base}${pointer}`,
        message: text,
        ...got(message, pointer),
        rule: 'json-rpc-2.0',
      });
    if (!isObject(message)) return rule('', 'a JSON-RPC message is an object');
    if (message.jsonrpc !== '2.0') rule('/jsonrpc', 'must be "2.0"');
    const id = message.id;
    const hasId = 'id' in message;
    if (hasId && !(typeof id === 'string' || typeof id === 'number' || id === null))
      rule('/id', 'must be a string, a number or null');
    if (typeof message.method === 'string') {
      const method = message.method;
      const type = (hasId ? types.requests : types.notifications).get(method);
      const params = types.params.get(method);
      if (!type && params) {
        checkAs(params, message.params ?? {}, at, `${base}/params`);
        if (hasId) {
          const key = JSON.stringify(id);
          pending.set(key, [...(pending.get(key) ?? []), method]);
        }
        return;
      }
      if (!type) {
        const other = (hasId ? types.notifications : types.requests).get(method);
        return rule(
          '/method',
          other
            ? `${method} is a ${hasId ? 'notification' : 'request'} (${other}); ${hasId ? 'it takes no id' : 'it needs an id'}`
            : `${binding.protocol}@${binding.version} has no method ${JSON.stringify(method)}`,
        );
      }
      checkAs(type, message, at, base);
      if (hasId) {
        const key = JSON.stringify(id);
        pending.set(key, [...(pending.get(key) ?? []), method]);
      }
      return;
    }
    if (!hasId) return rule('', 'neither a request or notification (no method) nor a response (no id)');
    const hasResult = 'result' in message;
    const hasError = 'error' in message;
    if (hasResult === hasError) return rule('', 'a response has exactly one of result and error');
    const key = JSON.stringify(id);
    const waiting = pending.get(key);
    const method = waiting?.pop();
    if (waiting?.length === 0) pending.delete(key);
    if (hasError) {
      const error = message.error;
      if (!isObject(error)) return rule('/error', 'must be an object');
      if (!Number.isInteger(error.code)) rule('/error/code', 'must be an integer');
      if (typeof error.message !== 'string') rule('/error/message', 'must be a string');
      return;
    }
    // An error may answer what could not be read (id null); a result always answers a request that was sent.
    if (method === undefined) return rule('/id', `answers no request sent before it (id ${key})`);
    const union = types.unions.get(method);
    if (union) return checkAsOneOf(union, message.result, at, `${base}/result`);
    const resultType = types.results.get(method);
    if (resultType) checkAs(resultType, message.result, at, `${base}/result`);
  };
  const onFrame = (frame: ParsedFrame) => {
    const at = { line: frame.line, event: frame.index };
    if (!frame.ok) {
      messages++;
      return found({ ...at, pointer: '', message: frame.error });
    }
    if (!Array.isArray(frame.value)) return onMessage(frame.value, at, '');
    if (frame.value.length === 0) {
      messages++;
      return found({ ...at, pointer: '', message: 'an empty batch', rule: 'json-rpc-2.0' });
    }
    if (!types.batches) {
      // Counted as the first member's issue (it is read as one message); each member is still checked.
      messages++;
      found({
        ...at,
        pointer: '',
        message: `a batch of ${frame.value.length}: ${binding.protocol}@${binding.version} takes no JSON-RPC batches (send each message on its own)`,
        rule: 'json-rpc-2.0',
      });
      messages--;
    }
    frame.value.forEach((m, i) => {
      onMessage(m, at, `/${i}`);
    });
  };
  await eachNdjsonItem(chunks, onFrame);
  return { items: messages, invalid };
}

/** A protocol with no JSON-RPC methods, asked to check a transcript: the command was misused. */
export class TranscriptUsageError extends Error {
  override name = 'TranscriptUsageError';
}
