import http from 'node:http';
import net from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperationApp, type OperationSpec } from './operation-app.js';
import { closeLocal, type LocalServer, serveLocal } from './serve-local.js';
import type { Validator } from './validation.js';

/**
 * Sends a body in pieces, and only after the server has answered sends the rest: the order that broke before the
 * lingering close (the server closed its socket at the answer, so the client's next write met a reset and the
 * client never read the 413). Events, not time, decide the order, so the case is the same on any machine.
 */
function sendPastTheAnswer(url: string, options: { chunked: boolean; piece: Buffer; pieces: number }) {
  return new Promise<{ status: number; body: string; error?: string }>((resolve) => {
    const total = options.piece.length * options.pieces;
    const request = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) }),
      },
    });
    let status = 0;
    let body = '';
    let error: string | undefined;
    let sent = 1;
    const rest = () => {
      while (sent < options.pieces) {
        sent++;
        if (!request.write(options.piece)) return void request.once('drain', rest);
      }
      request.end();
    };
    request.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.setEncoding('utf8');
      response.on('data', (d: string) => {
        body += d;
      });
      rest();
    });
    request.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    request.on('close', () => resolve({ status, body, ...(error ? { error } : {}) }));
    request.write(options.piece);
  });
}

describe('serveLocal > a refused body', () => {
  let local: LocalServer;
  beforeAll(async () => {
    // A route that refuses at once with `connection: close`, before reading a byte, and one that reads the body
    // within the runtime's limit (the generated servers' path: 413 while it streams in).
    const app = new Hono();
    app.post('/refuse', () => new Response('refused', { status: 413, headers: { connection: 'close' } }));
    const anything: Validator = (_value: unknown): _value is unknown => true;
    const read: OperationSpec = {
      operationId: 'read',
      method: 'POST',
      path: '/read',
      pathParams: anything,
      query: anything,
      body: {
        required: true,
        contents: [{ mediaType: 'application/json', kind: 'json', validate: anything }],
      },
      responses: { '200': [{ mediaType: 'application/json', kind: 'json' }] },
    };
    createOperationApp(
      [read],
      { read: () => ({ status: 200, body: {} }) },
      { app, limits: { jsonBytes: 64 * 1024 } },
    );
    local = await serveLocal(app.fetch, 0);
  });
  afterAll(() => closeLocal(local));

  const piece = Buffer.alloc(256 * 1024, 0x20);
  const cases: Array<[string, { path: string; chunked: boolean }]> = [
    ['answered at once > declared length', { path: '/refuse', chunked: false }],
    ['answered at once > chunked', { path: '/refuse', chunked: true }],
    ['413 from the body limit > declared length', { path: '/read', chunked: false }],
    ['413 from the body limit > chunked', { path: '/read', chunked: true }],
  ];
  it.each(cases)(
    '%s: the client reads the 413 and sends its whole body without a reset, 20 times',
    async (_n, c) => {
      for (let i = 0; i < 20; i++) {
        const got = await sendPastTheAnswer(`${local.url}${c.path}`, {
          chunked: c.chunked,
          piece,
          pieces: 32,
        });
        expect({ ...got, body: got.body.includes('refused') || got.body.includes('body-too-large') }).toEqual(
          {
            status: 413,
            body: true,
          },
        );
      }
    },
  );
});

/**
 * A raw client that declares `declared` bytes and keeps writing until it has sent `send` bytes or the server cuts it
 * (a client of node:http stops on its own once it has its answer, so it cannot show the server's bounds).
 */
function rawUpload(url: string, declared: number, send: number) {
  const { port } = new URL(url);
  const socket = net.connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
  const done = new Promise<{ answer: string; sent: number }>((resolve) => {
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let answer = '';
    let sent = 0;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      answer += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ answer, sent }));
    const pump = () => {
      while (sent < send && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
    };
    socket.write(
      `POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`,
    );
    pump();
  });
  return { socket, done };
}

describe('serveLocal > the lingering has bounds', () => {
  const refuse = () => new Response('refused', { status: 413, headers: { connection: 'close' } });

  it('bytes > past maxBytes the connection is cut (the client had its answer)', async () => {
    const local = await serveLocal(refuse, 0, { linger: { maxBytes: 1024 * 1024, idleMs: 600_000 } });
    try {
      const gigabyte = 1024 ** 3;
      const got = await rawUpload(local.url, gigabyte, gigabyte).done;
      expect(got.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(got.sent).toBeLessThan(gigabyte);
    } finally {
      await closeLocal(local);
    }
  });

  it('idle > a client that stops sending is cut after idleMs', async () => {
    const local = await serveLocal(refuse, 0, { linger: { maxBytes: 1024 * 1024, idleMs: 50 } });
    try {
      // The client keeps its side open and goes quiet; the server's own socket closing is what shows the bound.
      const serverSocketClosed = new Promise<void>((resolve) =>
        local.server.once('connection', (socket: net.Socket) => socket.once('close', () => resolve())),
      );
      const upload = rawUpload(local.url, 10 * 1024 * 1024, 128 * 1024);
      await serverSocketClosed;
      upload.socket.destroy();
      const got = await upload.done;
      expect(got.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(got.sent).toBe(128 * 1024);
    } finally {
      await closeLocal(local);
    }
  });
});
