/** The bytes of a body, or the news that it was larger than allowed. */
export type LimitedBytes = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; tooLarge: true };

/**
 * Reads a request body, stopping as soon as it passes `maxBytes`: a declared Content-Length over the limit is refused
 * before a byte is read, and a body without one is counted as it streams in, so an oversized body never sits in
 * memory whole. The rest of a refused body is left unread (the server adapter drains or closes the connection).
 */
export async function readLimitedBytes(
  request: Pick<Request, 'headers' | 'body' | 'arrayBuffer'>,
  maxBytes: number,
): Promise<LimitedBytes> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared)) {
    if (Number(declared) > maxBytes) return { ok: false, tooLarge: true };
    // The HTTP parser holds a body to its declared length, so this read is bounded. It is also the server adapter's
    // fast path: the body is read from the socket without building a web stream and a second Request.
    return { ok: true, bytes: new Uint8Array(await request.arrayBuffer()) };
  }
  const body = request.body;
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, tooLarge: true };
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return { ok: true, bytes: chunks[0] };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
