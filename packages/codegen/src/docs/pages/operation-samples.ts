// The samples under each operation and JSON-RPC method: the request as it is sent and each success answer as it
// comes back (a streamed answer as its SSE events or NDJSON lines; a JSON-RPC call in its whole envelope), each
// message one of the version's examples where it has one, else built from the schema (samples.ts says how).
import type { SurfaceContent, SurfaceOperation, SurfaceRpcMethod } from '@agentproto/runtime/contract';
import { type Html, html } from '../html.js';
import { type Sample, streamText, type VersionSamples } from '../samples.js';

const JSON_RPC = { jsonrpc: '2.0', id: 1 };

/** The request and success-answer samples of an HTTP operation. */
export function operationSamples(op: SurfaceOperation, samples: VersionSamples): Html {
  const content = op.body?.contents[0];
  const request = content ? bodySample(content, samples) : undefined;
  const head = `${op.method} ${op.path}${content ? `\ncontent-type: ${content.mediaType}` : ''}`;
  // Every media type of every success status: an operation may answer with JSON or, asked to, with a stream.
  const answers = Object.entries(op.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([status, list]) => {
      const title = `Response ${status}`;
      if (list.length === 0) return [sampleBlock(title, `HTTP ${status}`, ['no body'])];
      return list.map((c) => {
        const head = `HTTP ${status}\ncontent-type: ${c.mediaType}`;
        if (c.kind === 'stream')
          return streamBlock(
            title,
            head,
            samples.items(c.item?.typeName),
            c.item?.framing ?? 'sse',
            c.item?.typeName,
          );
        const s = bodySample(c, samples);
        return sampleBlock(title, `${head}\n\n${s.text}`, [s.source]);
      });
    });
  return html`<div class="samples">
${sampleBlock('Request', request ? `${head}\n\n${request.text}` : head, request ? [request.source] : [])}
${answers}
</div>`;
}

/**
 * The request and answer samples of a JSON-RPC method, in their envelopes. The params are the example of the HTTP
 * operation of the same name when there is one (SendMessage and sendMessage carry the same fields, as the inspector
 * also assumes), else built from the method's params schema.
 */
export function methodSamples(
  m: SurfaceRpcMethod,
  operations: readonly SurfaceOperation[],
  endpoint: string,
  samples: VersionSamples,
): Html {
  const twin = operations.find((o) => o.operationId.toLowerCase() === m.name.toLowerCase())?.body
    ?.contents[0];
  const fromTwin = twin?.kind === 'json' && twin.typeName ? samples.message(twin.typeName) : undefined;
  const params = fromTwin?.source.startsWith('example') ? fromTwin : samples.message(undefined, m.params);
  const request = { ...JSON_RPC, method: m.name, params: params.value };
  const head = `POST ${endpoint}\ncontent-type: application/json`;
  const answer = m.stream
    ? streamBlock(
        'Response',
        `HTTP 200\ncontent-type: ${m.stream === 'sse' ? 'text/event-stream' : 'application/x-ndjson'}`,
        samples.items(m.resultType).map((s) => ({ ...s, value: { ...JSON_RPC, result: s.value } })),
        m.stream,
        m.resultType,
      )
    : (() => {
        const result = samples.message(m.resultType);
        return sampleBlock(
          'Response',
          `HTTP 200\ncontent-type: application/json\n\n${pretty({ ...JSON_RPC, result: result.value })}`,
          [`result: ${result.source}`],
        );
      })();
  return html`<div class="samples">
${sampleBlock('Request', `${head}\n\n${pretty(request)}`, [`params: ${params.source}`])}
${answer}
</div>`;
}

function bodySample(c: SurfaceContent, samples: VersionSamples): { text: string; source: string } {
  if (c.kind === 'binary') return { text: '(bytes)', source: 'any bytes' };
  const s = samples.message(c.typeName, c.schema);
  const form = c.kind === 'form' ? ' (its fields, sent as form fields)' : '';
  return { text: pretty(s.value), source: `${s.source}${form}` };
}

function streamBlock(
  title: string,
  head: string,
  items: readonly Sample[],
  framing: 'sse' | 'ndjson',
  typeName: string | undefined,
): Html {
  const sources = [...new Set(items.map((i) => i.source))].join(', ');
  const lead = `${items.length} ${items.length === 1 ? 'item' : 'items'}${typeName ? ` of ${typeName}` : ''}, each ${framing === 'sse' ? 'one SSE event' : 'one NDJSON line'} (${sources}); a real stream's order follows the protocol's rules`;
  return sampleBlock(
    title,
    `${head}\n\n${streamText(
      items.map((i) => i.value),
      framing,
    ).trimEnd()}`,
    [lead],
  );
}

function sampleBlock(title: string, text: string, notes: readonly string[]): Html {
  return html`<div class="sample"><h4>${title} sample</h4>${notes.length > 0 ? html`<p class="sample-source">${notes.join('; ')}</p>` : ''}<pre><code>${text}</code></pre></div>`;
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}
