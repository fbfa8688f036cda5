// A webhook receiver on 127.0.0.1 for push notifications: it records each POST (headers and JSON body) and answers as
// told (a status, a redirect, or never). The conformance kit's push checks and the tests use it; it listens on a
// port of its own, so the agent under test must be allowed to call 127.0.0.1 (`--push-allow 127.0.0.1`).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the text when it is not JSON. */
  body: unknown;
}

/** How the receiver answers a request: a status, `hang` (never), or a redirect to a URL. */
export type ReceiverAnswer = number | 'hang' | { redirect: string };

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request so far, in order. */
  received: Received[];
  /** Resolves once `count` requests whose path starts with `path` arrived (`timeoutMs`: rejects after it). */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  /** The answer to the next requests (default 200). */
  answer: (request: Received, index: number) => ReceiverAnswer;
  close(): Promise<void>;
}

/** Bytes of a request body kept; past it the rest is dropped. */
const MAX_BODY = 1024 * 1024;

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text, for the check to say so.
      }
      const request: Received = { path: req.url ?? '/', headers: req.headers, body };
      received.push(request);
      for (const wake of waiters) wake();
      const answer = receiver.answer(request, received.length - 1);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'number') res.writeHead(answer).end();
      else res.writeHead(302, { location: answer.redirect }).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // sound: a server listening on a TCP port reports an AddressInfo, never a pipe name.
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: () => 200,
    waitFor(count, path = '/', timeoutMs = 10_000) {
      const matching = () => received.filter((r) => r.path.startsWith(path));
      return new Promise((resolve, reject) => {
        const check = () => {
          const got = matching();
          if (got.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(got);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the webhook got ${matching().length} requests at ${path}, expected ${count}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
