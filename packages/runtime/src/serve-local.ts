// Serving a fetch handler on 127.0.0.1 with @hono/node-server: what `npm start` of a reference agent or a new project
// runs, and the end-to-end tests.
import { type ServerType, serve } from '@hono/node-server';

/** A server listening on 127.0.0.1, and its root URL. */
export interface LocalServer {
  server: ServerType;
  url: string;
}

/**
 * Serves a fetch handler (a Hono app's `fetch`) on 127.0.0.1 only; port 0 picks a free port. Resolves once it
 * listens; rejects when it cannot listen (a port in use: EADDRINUSE). What the reference agents' `start` scripts and
 * the end-to-end tests use.
 */
export function serveLocal(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
): Promise<LocalServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port }, (info) => {
      server.off('error', reject);
      resolve({ server, url: `http://127.0.0.1:${info.port}` });
    });
    server.once('error', reject);
  });
}

/** Stops a server and cuts its open connections (a stream a client still reads would keep `close` waiting). */
export function closeLocal({ server }: LocalServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}
