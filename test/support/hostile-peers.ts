// Hostile agents for the tools' deadlines (issue 34): each answers in a way that never finishes, so a tool that waits
// for it to finish never does. The tests give the tools short deadlines and check that they gave up, and said why:
// the outcome is the same however slow the machine.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { portOf } from './typed.js';

/** How a hostile agent behaves towards every request. */
export type HostileKind =
  /** 200 `text/event-stream`, one valid-looking event every 20 ms, forever. */
  | 'endless-sse'
  /** 200 JSON, one byte of a never-closed object every 20 ms, forever. */
  | 'drip'
  /** Reads the request and never answers: no status line, no headers. */
  | 'silent'
  /** 302 to itself, for ever. */
  | 'redirect-loop'
  /** 200 with 64 KiB of headers, past what a client reads (Node.js: 16 KiB). */
  | 'huge-headers'
  /** 200 JSON, `content-encoding: gzip`, a few KiB that inflate to zeros without end. */
  | 'gzip-bomb';

/** A hostile agent on 127.0.0.1; `close` ends every connection it holds. */
export interface HostilePeer {
  url: string;
  /** Requests it has received. */
  requests: () => number;
  close: () => Promise<void>;
}

/** Starts a hostile agent of the given kind on 127.0.0.1, port 0. */
export async function startHostilePeer(kind: HostileKind): Promise<HostilePeer> {
  const sockets = new Set<Socket>();
  // 16 MiB of zeros, gzipped (about 16 KiB), sent again and again, one gzip member after another. Made before the
  // server listens: made at the first request, it would hold the event loop while a client waits for the answer.
  const bomb = kind === 'gzip-bomb' ? gzipSync(Buffer.alloc(16 * 1024 * 1024)) : undefined;
  const timers = new Set<ReturnType<typeof setInterval>>();
  let count = 0;
  const every = (res: ServerResponse, write: () => string) => {
    const timer = setInterval(() => {
      if (!res.destroyed) res.write(write());
    }, 20);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };
  const server: Server = createServer((req, res) => {
    count++;
    req.resume();
    if (kind === 'silent') return;
    if (kind === 'redirect-loop') {
      res.writeHead(302, { location: req.url ?? '/' }).end();
      return;
    }
    if (kind === 'huge-headers') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (let i = 0; i < 64; i++) headers[`x-filler-${i}`] = 'x'.repeat(1024);
      res.writeHead(200, headers).end('{}');
      return;
    }
    if (bomb) {
      const chunk = bomb;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
      return;
    }
    if (kind === 'endless-sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      every(res, () => `id: ${n}\nevent: message\ndata: {"n":${n++}}\n\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"a":"');
    every(res, () => 'x');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = portOf(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
