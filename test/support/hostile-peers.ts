// Hostile agents for the tools' deadlines (issue 34): each answers in a way that never finishes, so a tool that waits
// for it to finish never does. The tests give the tools short deadlines and check that they gave up, and said why:
// the outcome is the same however slow the machine.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How a hostile agent behaves towards every request. */
export type HostileKind =
  /** 200 `text/event-stream`, one valid-looking event every 20 ms, forever. */
  | 'endless-sse'
  /** 200 JSON, one byte of a never-closed object every 20 ms, forever. */
  | 'drip'
  /** Reads the request and never answers: no status line, no headers. */
  | 'silent';

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
  const { port } = server.address() as AddressInfo;
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
