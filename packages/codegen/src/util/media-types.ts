// One definition of the framing kinds for the whole project: the runtime's, which reads and writes them.
import type { StreamFraming } from '@agentproto/runtime/contract';

export type { StreamFraming };

/**
 * The media-type keyword that types the items of a stream. OpenAPI 3.2 calls it `itemSchema`; 3.1 documents carry it
 * as an extension, so moving to 3.2 is a rename.
 */
export const ITEM_SCHEMA = 'x-itemSchema';

/** How a streaming media type frames its items, or undefined for a media type that is not a stream. */
export function streamFraming(mediaType: string): StreamFraming | undefined {
  if (mediaType === 'text/event-stream') return 'sse';
  if (mediaType === 'application/x-ndjson' || mediaType === 'application/jsonl') return 'ndjson';
  return undefined;
}

/** The media-type keyword naming the item field whose value becomes each SSE event's `id:` line. */
export const SSE_ID_FIELD = 'x-sseIdField';
