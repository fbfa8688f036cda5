// One outbound POST to a URL a client named (a webhook), under the outbound policy (outbound-policy.ts): the address
// the socket connects to is checked (by the lookup it is given, and again once connected), redirects are answered as
// they come and never followed, and the whole exchange has a deadline. The answer's body is read and dropped, at most
// a small amount of it: only the status matters.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import {
  blockedAddressKind,
  checkOutboundUrl,
  guardedLookup,
  isAllowedHost,
  type OutboundPolicy,
  OutboundRefusedError,
} from './outbound-policy.js';

/** What `postOutbound` sends. */
export interface OutboundPost {
  headers: Readonly<Record<string, string>>;
  body: string;
  /**
   * The deadline of the whole exchange, connection included, in milliseconds, from when the request has its socket: a
   * request waiting for a pooled connection (`agents`) has not started yet.
   */
  timeoutMs: number;
  policy?: OutboundPolicy;
  /** Aborts the request (the caller is shutting down). */
  signal?: AbortSignal;
  /**
   * Connections to keep between requests (`outboundAgents()`); without, each request has a connection of its own. A
   * kept connection was checked when it was made, under the same policy (the allow-list is by host, which is part of
   * what a connection is kept under).
   */
  agents?: OutboundAgents;
}

/** Kept-alive connection pools for outbound requests, one per scheme. */
export interface OutboundAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/** Connection pools that keep connections open between requests (at most `maxSockets` per host; default 8). */
export function outboundAgents(maxSockets = 8): OutboundAgents {
  return {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
}

/** The receiver's answer: its status (a 3xx is answered as is: the `location` is never followed). */
export interface OutboundAnswer {
  status: number;
}

/** Bytes of an answer's body read before the connection is dropped: the body is not used. */
const ANSWER_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url`. Rejects with OutboundRefusedError when the policy refuses the URL or the address connected
 * to, with an Error whose message says `timed out` past the deadline, and with the socket's error otherwise.
 */
export async function postOutbound(url: string, post: OutboundPost): Promise<OutboundAnswer> {
  const policy = post.policy ?? {};
  // The URL itself is checked here; the addresses a name resolves to are checked by the connection's lookup (one
  // resolution per request, at the moment that counts).
  const target = await checkOutboundUrl(url, policy, false);
  const allowed = isAllowedHost(target, policy);
  const https = target.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const agent = post.agents ? (https ? post.agents.https : post.agents.http) : false;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    let settled = false;
    let answered = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (error: Error | undefined, answer?: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      post.signal?.removeEventListener('abort', onAbort);
      // A connection of its own is closed once the status is known; a pooled one only when the exchange failed or
      // the answer is too long to read to its end.
      if (error || !post.agents || (answer && answered > ANSWER_BYTES)) request.destroy();
      if (error) reject(error);
      else if (answer) resolve(answer);
    };
    const request = send(target, {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      agent,
      ...(allowed ? {} : { lookup: guardedLookup(policy) }),
    });
    const onAbort = () => finish(new Error('aborted'));
    if (post.signal?.aborted) onAbort();
    post.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('socket', (socket: Socket) => {
      // The clock starts with the socket: behind a busy pool, a request that waited its turn was not slow (a webhook
      // that hangs still frees each pooled socket at its own deadline).
      if (!settled)
        timer = setTimeout(() => finish(new Error(`timed out after ${post.timeoutMs} ms`)), post.timeoutMs);
      if (allowed) return;
      // The address actually connected to: whatever resolved it, it must be public.
      const judge = () => {
        const address = socket.remoteAddress ?? '';
        const kind = blockedAddressKind(address);
        if (kind)
          finish(new OutboundRefusedError(`${target.hostname} connected to ${address}, a ${kind} address`));
      };
      // A pooled connection is connected already (it was judged when it was made; once more costs nothing); a new
      // one has no address until it connects.
      if (socket.remoteAddress === undefined) socket.once('connect', judge);
      else judge();
    });
    request.on('error', (error) => finish(error));
    request.on('response', (response: IncomingMessage) => {
      response.on('data', (chunk: Buffer) => {
        answered += chunk.length;
        if (answered > ANSWER_BYTES) finish(undefined, { status: response.statusCode ?? 0 });
      });
      response.on('end', () => finish(undefined, { status: response.statusCode ?? 0 }));
      response.on('error', (error) => finish(error));
    });
    request.end(post.body);
  });
}
