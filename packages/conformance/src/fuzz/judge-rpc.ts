// Judges the answer to a JSON-RPC call of the schema-driven checks: HTTP 200 (or a status the suite declares for
// errors) with one response object (or, for a streaming method, a stream of them) for the request's id, holding either
// a result its type allows or an error with a code the method declares (or one of JSON-RPC's own). A valid call is
// never answered -32603 (internal error); an invalid one is answered with an error, never a result.
import { describeErrors, excerpt } from '@agentproto/runtime/contract';
import { type Finding, type JudgeContext, readBody } from './judge.js';
import { type Probe, RPC_ID, type RpcCall } from './probe.js';

/** JSON-RPC 2.0's own error codes (parse error to invalid request, and -32603 internal error): always declared. */
const STANDARD = new Set<unknown>([-32700, -32600, -32601, -32602, -32603]);
const INTERNAL = -32603;
/** The errors about a message whose id may not have been read: not JSON, or not a request object. */
const UNREAD_ID = new Set<unknown>([-32700, -32600]);

interface Envelope {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** Reads and judges one JSON-RPC answer. */
export async function judgeRpc(
  probe: Probe,
  rpc: RpcCall,
  response: Response,
  context: JudgeContext,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const mine = probe.valid ? 'valid' : 'invalid';
  const status = response.status;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const streamed = rpc.stream !== undefined && /event-stream|ndjson/.test(mediaType);
  const { items, text, bodyProblems, value } = await readBody(
    probe,
    response,
    streamed && rpc.stream
      ? { mediaType, kind: 'stream', schema: {}, item: { framing: rpc.stream } }
      : { mediaType, kind: 'json', schema: {} },
    context,
  );
  if (status >= 500) {
    findings.push({
      check: mine,
      category: 'server-error',
      message: `answered HTTP ${status}: ${excerpt(text)}`,
    });
    return findings;
  }
  // A binding may answer an error it finds before any method runs with an HTTP status of its own (MCP: 400 for a
  // header that disagrees with the body, 404 for a method not served), as its suite declares.
  const errorStatus =
    context.rpcErrorStatuses?.includes(status) === true &&
    typeof value === 'object' &&
    value !== null &&
    'error' in value;
  if (status !== 200 && !errorStatus)
    findings.push({
      check: 'declared',
      category: 'undeclared-status',
      message: `answered HTTP ${status}; a JSON-RPC answer, result or error, comes with 200`,
    });
  // A stream: the protocol's stream rules read its envelopes; a refusal is an error as the first item.
  if (streamed) {
    const first = items[0];
    context.answered?.(first && typeof first === 'object' && 'error' in first ? 'error' : 'result stream');
    if (bodyProblems.length > 0)
      findings.push({
        check: probe.valid ? 'valid' : 'declared',
        category: 'body-mismatch',
        message: `streamed items that break their rules: ${bodyProblems.slice(0, 2).join('; ')}`,
      });
    if (!probe.valid && !(first && typeof first === 'object' && 'error' in first))
      findings.push({
        check: 'invalid',
        category: 'accepted-invalid',
        message:
          'answered with a stream of results, accepting params that break their schema (expected an error)',
      });
    return findings;
  }
  // sound: envelopeProblem, just below, turns away an answer that is not an object, or whose error (when there is one)
  // has no integer code or no message; nothing else is read from it as more than unknown
  const envelope = (value ?? undefined) as Envelope | undefined;
  const shape = envelopeProblem(envelope);
  if (shape) {
    findings.push({
      check: probe.valid ? 'valid' : 'declared',
      category: 'body-mismatch',
      message: `${shape}: ${excerpt(text)}`,
    });
    return findings;
  }
  const error = envelope?.error;
  context.answered?.(error ? 'error' : 'result');
  if (error) {
    const code = error.code;
    if (code === INTERNAL)
      findings.push({
        check: mine,
        category: 'server-error',
        message: `answered error ${code} (internal error): ${excerpt(String(error.message ?? ''))}`,
      });
    else if (!STANDARD.has(code) && !rpc.errors.some((declared) => declared === code))
      findings.push({
        check: 'declared',
        category: 'undeclared-error',
        message: `answered error ${code}, which neither ${rpc.method} nor the document declares`,
      });
    return findings;
  }
  if (!probe.valid)
    findings.push({
      check: 'invalid',
      category: 'accepted-invalid',
      message:
        'answered with a result, accepting params that break their schema (expected an error such as -32602)',
    });
  const validate = context.binding.validators[rpc.resultType];
  if (validate && !validate(envelope?.result))
    findings.push({
      check: probe.valid ? 'valid' : 'declared',
      category: 'body-mismatch',
      message: `answered a result that breaks its schema: ${describeErrors(validate.errors)
        .slice(0, 2)
        .map((i) => `/result${i.pointer}: ${i.message} (${rpc.resultType})`)
        .join('; ')}`,
    });
  return findings;
}

/** What makes a body not a JSON-RPC response to the checks' request, if anything. */
function envelopeProblem(e: Envelope | undefined): string | undefined {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return 'the answer is not a JSON-RPC response object';
  if (e.jsonrpc !== '2.0') return 'the response does not say "jsonrpc": "2.0"';
  // An error about a message whose id could not be read has id null (JSON-RPC 2.0 §5) or, where the protocol's schema
  // leaves it out (MCP's JSONRPCErrorResponse), none.
  const unread =
    e.id === null || (e.id === undefined && e.error !== undefined && UNREAD_ID.has(e.error.code));
  if (e.id !== RPC_ID && !unread)
    return `the response's id is ${JSON.stringify(e.id)}, not the request's ${RPC_ID}`;
  if ('result' in e === 'error' in e) return 'the response holds neither a result nor an error, or both';
  if (e.error && (!Number.isInteger(e.error.code) || typeof e.error.message !== 'string'))
    return 'the error has no integer code or no message';
  return undefined;
}
