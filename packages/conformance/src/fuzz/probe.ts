// One request of the schema-driven checks, as data: which operation, whether it keeps every rule, the one rule it
// breaks if not, its parameters and body. Turned into a fetch Request here, and into a curl command in curl.ts.
import type { StreamFraming, SurfaceOperation } from '@agentproto/runtime/contract';
import type { MutationKind } from './mutate.js';

/** A request body: JSON, raw text (a malformed JSON body), or a multipart form. */
export type ProbeBody =
  | { kind: 'json'; mediaType: string; value: unknown }
  | { kind: 'text'; mediaType: string; text: string }
  | { kind: 'form'; fields: Readonly<Record<string, string>>; files: Readonly<Record<string, string>> };

/** A JSON-RPC method, as the checks call it: its body is the params, sent inside a request envelope. */
export interface RpcCall {
  method: string;
  /** The validator of the result. */
  resultType: string;
  stream?: StreamFraming;
  /** The error codes the method may answer with: its own and the document's (JSON-RPC's own codes always). */
  errors: readonly number[];
}

/** An operation the checks send requests to: one of the OpenAPI surface, or a JSON-RPC method (`rpc`). */
export type FuzzOperation = SurfaceOperation & { rpc?: RpcCall };

/** One request the checks send. */
export interface Probe {
  operation: FuzzOperation;
  /** True when it keeps every rule of its operation; false when it breaks exactly `mutation`. */
  valid: boolean;
  mutation?: { kind: MutationKind; at: string; description: string };
  path: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body?: ProbeBody;
  /** The type the JSON body must have (its validator's name), when the operation names one. */
  bodyType?: string;
  /**
   * For a body mutation: the valid body it was made from, and the mutation. Shrinking makes that body smaller and
   * applies the mutation again, so the small request still breaks exactly one rule.
   */
  origin?: { value: unknown; apply: (value: unknown) => unknown };
}

/** The probe's URL, relative to the agent's root (`/tasks/t%201?page_size=3`). */
export function probePath(probe: Probe): string {
  const path = probe.operation.path.replace(/\{([^{}]+)\}/g, (_, name: string) =>
    encodeURIComponent(probe.path[name] ?? ''),
  );
  const query = new URLSearchParams(Object.entries(probe.query)).toString();
  return query ? `${path}?${query}` : path;
}

/** The id every JSON-RPC request of the checks carries. */
export const RPC_ID = 1;

/**
 * The body as sent: JSON (for a JSON-RPC method, the params inside a request envelope), text, or a form. A text body
 * of a JSON-RPC method is JSON cut short, and stays so inside the envelope.
 */
export function wireBody(
  probe: Probe,
): { mediaType: string; text: string } | { form: Extract<ProbeBody, { kind: 'form' }> } | undefined {
  const b = probe.body;
  const rpc = probe.operation.rpc;
  if (!b) return undefined;
  if (b.kind === 'form') return { form: b };
  const params = b.kind === 'json' ? JSON.stringify(b.value) : b.text;
  if (!rpc) return { mediaType: b.mediaType, text: params };
  return {
    mediaType: b.mediaType,
    text: `{"jsonrpc":"2.0","id":${RPC_ID},"method":${JSON.stringify(rpc.method)},"params":${params}${b.kind === 'json' ? '}' : ''}`,
  };
}

/** The probe as a fetch Request against `baseUrl`. */
export function toRequest(probe: Probe, baseUrl: string, headers: Readonly<Record<string, string>>): Request {
  // A JSON-RPC call goes to the endpoint itself; an operation's path is relative to the surface's base.
  const url = probe.operation.rpc
    ? new URL(baseUrl)
    : new URL(`./${probePath(probe).replace(/^\//, '')}`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const h = new Headers(headers);
  let body: BodyInit | undefined;
  const wire = wireBody(probe);
  if (wire && 'form' in wire) {
    const form = new FormData();
    for (const [k, v] of Object.entries(wire.form.fields)) form.set(k, v);
    for (const [k, v] of Object.entries(wire.form.files))
      form.set(k, new File([v], 'conformance.txt', { type: 'text/plain' }));
    body = form;
  } else if (wire) {
    h.set('content-type', wire.mediaType);
    body = wire.text;
  }
  return new Request(url, {
    method: probe.operation.method,
    headers: h,
    ...(body === undefined ? {} : { body }),
  });
}

/** How a failure message names a probe: method and path (or the JSON-RPC method), and the rule it breaks. */
export function probeLabel(probe: Probe): string {
  const what = probe.mutation ? ` (${probe.mutation.description})` : '';
  const rpc = probe.operation.rpc;
  return `${rpc ? `JSON-RPC ${rpc.method}` : `${probe.operation.method} ${probePath(probe)}`}${what}`;
}
