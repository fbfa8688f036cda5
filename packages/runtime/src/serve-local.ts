// Serving a fetch handler on 127.0.0.1 with @hono/node-server: what `npm start` of a reference agent or a new project
// runs, and the end-to-end tests.
import { type IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';

/** A server listening on 127.0.0.1, and its root URL. */
export interface LocalServer {
  server: ServerType;
  url: string;
}

/**
 * Serves a fetch handler (a Hono app's `fetch`) on 127.0.0.1 only; port 0 picks a free port. Resolves once it
 * listens; rejects when it cannot listen (a port in use: EADDRINUSE). What the reference agents' `start` scripts and
 * the end-to-end tests use. A body refused before it was all sent is read to its end within `options.linger`
 * (`DEFAULT_LINGER`) before the connection closes, so the client reads the refusal (`lingerOnClose`).
 */
export function serveLocal(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  options: { linger?: Readonly<LingerLimits> } = {},
): Promise<LocalServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, (info) => {
      server.off('error', reject);
      resolve({ server, url: `http://127.0.0.1:${info.port}` });
    });
    // Without a `createServer` option, @hono/node-server serves with `http.createServer`: an HTTP/1 Server.
    if (server instanceof Server) lingerOnClose(server, options.linger);
    server.once('error', reject);
  });
}

/** How long a connection is kept open to read the rest of a body the server has refused (see `lingerOnClose`). */
export interface LingerLimits {
  /** Most bytes of a refused body read and dropped; past them the connection is cut. */
  maxBytes: number;
  /** Longest wait for the client's next byte, in milliseconds; past it the connection is cut. */
  idleMs: number;
}

/** 64 MiB and 10 s: room for a client to finish sending any body our limits refuse, no room to hold a socket. */
export const DEFAULT_LINGER: Readonly<LingerLimits> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  idleMs: 10_000,
});

/**
 * A lingering close for a Node HTTP server. When a server answers before the client has sent its whole body (a 413
 * for a body over the limit, a 415 before a byte is read) and then closes the connection, the client is still
 * writing: the client's next bytes meet a closed socket, the kernel answers with a reset, and many clients report
 * that reset instead of the answer that was already on its way. So instead of closing at once, the server ends its
 * side after the answer, reads and drops what the client still sends (within `limits`), and closes when the client
 * has sent it all. Node's own close after a `Connection: close` answer and @hono/node-server's cleanup of an unread
 * body both end a connection with `socket.destroySoon()`; that one method is where the lingering goes in, for
 * connections whose last request is not yet complete (every other close is left as it was).
 */
export function lingerOnClose(server: Server, limits: Readonly<LingerLimits> = DEFAULT_LINGER): void {
  const lastRequest = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (request: IncomingMessage) => lastRequest.set(request.socket, request));
  server.on('connection', (socket: Socket) => {
    const closeSoon = socket.destroySoon.bind(socket);
    let lingering = false;
    socket.destroySoon = () => {
      const request = lastRequest.get(socket);
      if (lingering) return;
      if (!request || request.complete || socket.destroyed) return closeSoon();
      lingering = true;
      socket.end();
      // Once the whole body is in, nothing is left unread: the close that was asked for resets nothing now (it still
      // waits for the answer to be flushed).
      request.once('end', closeSoon);
      request.resume();
      socket.setTimeout(limits.idleMs, () => socket.destroy());
      // The HTTP parser reads the socket itself (no 'data' events reach JavaScript), so the bytes are counted where
      // the socket counts them.
      const from = socket.bytesRead;
      const watch = setInterval(() => {
        if (socket.bytesRead - from > limits.maxBytes) socket.destroy();
      }, 20);
      watch.unref();
      socket.once('close', () => clearInterval(watch));
    };
  });
}

/** Stops a server and cuts its open connections (a stream a client still reads would keep `close` waiting). */
export function closeLocal({ server }: LocalServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // An HTTP/1 server has it; an HTTP/2 one does not.
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}
