// One request of the schema-driven checks, as data: which operation, whether it keeps every rule, the one rule it
// breaks if not, its parameters and body. Turned into a fetch Request here, and into a curl command in curl.ts.
import type { SurfaceOperation } from '@agentproto/runtime/documents';
import type { MutationKind } from './mutate.js';

/** A request body: JSON, raw text (a malformed JSON body), or a multipart form. */
export type ProbeBody =
  | { kind: 'json'; mediaType: string; value: unknown }
  | { kind: 'text'; mediaType: string; text: string }
  | { kind: 'form'; fields: Readonly<Record<string, string>>; files: Readonly<Record<string, string>> };

/** One request the checks send. */
export interface Probe {
  operation: SurfaceOperation;
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

/** The probe as a fetch Request against `baseUrl`. */
export function toRequest(probe: Probe, baseUrl: string, headers: Readonly<Record<string, string>>): Request {
  const url = new URL(
    `./${probePath(probe).replace(/^\//, '')}`,
    baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
  );
  const h = new Headers(headers);
  let body: BodyInit | undefined;
  const b = probe.body;
  if (b?.kind === 'json') {
    h.set('content-type', b.mediaType);
    body = JSON.stringify(b.value);
  } else if (b?.kind === 'text') {
    h.set('content-type', b.mediaType);
    body = b.text;
  } else if (b?.kind === 'form') {
    const form = new FormData();
    for (const [k, v] of Object.entries(b.fields)) form.set(k, v);
    for (const [k, v] of Object.entries(b.files))
      form.set(k, new File([v], 'conformance.txt', { type: 'text/plain' }));
    body = form;
  }
  return new Request(url, {
    method: probe.operation.method,
    headers: h,
    ...(body === undefined ? {} : { body }),
  });
}

/** How a failure message names a probe: method, path, and the rule it breaks. */
export function probeLabel(probe: Probe): string {
  const what = probe.mutation ? ` (${probe.mutation.description})` : '';
  return `${probe.operation.method} ${probePath(probe)}${what}`;
}
