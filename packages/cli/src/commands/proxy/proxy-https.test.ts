// The proxy in front of an https:// agent, whose certificate (a test-only self-signed one, fixtures/) it is told to
// trust with --ca: requests and answers, a stream among them, pass through TLS unchanged and are checked.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../exit-codes.js';
import type { Output } from '../../output.js';
import { proxyCommand } from './proxy.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const CERT = path.join(FIXTURES, 'test-agent.cert.pem');
const KEY = path.join(FIXTURES, 'test-agent.key.pem');

const json = (value: unknown) => JSON.stringify(value);
const SEND = { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] } };
const REPLY = { message: { messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ text: 'Hi' }] } };
const TASK_EVENT = { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } } };
const DONE_EVENT = {
  statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } },
};
const STREAM = `data: ${json(TASK_EVENT)}\r\n\r\n: a comment\n\ndata: ${json(DONE_EVENT)}\n\n`;

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** An https agent on 127.0.0.1 with the fixture's certificate: A2A's message:send, and message:stream in two writes. */
async function httpsAgent(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = https.createServer(
    { cert: readFileSync(CERT), key: readFileSync(KEY) },
    async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      requests.push(`${req.method} ${req.url} ${req.headers.host} ${body}`);
      if (req.url === '/message:stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const half = STREAM.length >> 1;
        res.write(STREAM.slice(0, half));
        res.end(STREAM.slice(half));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(json(REPLY));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  // sound: a server listening on a TCP port has an AddressInfo
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A POST of JSON to `url` (plain http: the client's side of the proxy), read whole. */
function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('latin1');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(json(body));
  });
}

/**
 * Runs `agentproto proxy <target> --protocol a2a@1.0 --reporter json` with `ca`, sends a message:send and a
 * message:stream through it once it listens, and stops it: the answers, the reports and the exit code.
 */
async function throughProxy(target: string, ca: string | undefined) {
  const answers: Array<{ status: number; text: string }> = [];
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const io: Output = {
    out: (line) => out.push(line),
    err: (line) => {
      err.push(line);
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      if (!url) return;
      void post(`${url}/message:send`, SEND)
        .then((a) => answers.push(a))
        .then(() => post(`${url}/message:stream`, SEND))
        .then((a) => answers.push(a))
        .finally(stop);
    },
    stdin: async function* () {},
  };
  const code = await proxyCommand(
    target,
    { protocol: 'a2a@1.0', reporter: 'json', ...(ca === undefined ? {} : { ca }) },
    io,
    until,
  );
  return { code, answers, reports: out.map((l) => JSON.parse(l)), err };
}

describe('agentproto proxy > an https agent', () => {
  it('--ca trusts its certificate: a POST and a stream pass through TLS unchanged, and are checked', async () => {
    const agent = await httpsAgent();
    const { code, answers, reports, err } = await throughProxy(agent.url, CERT);
    expect(reports).toEqual([]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]?.text).toBe(json(REPLY));
    expect(answers[1]?.text).toBe(STREAM);
    // The agent got both requests, its own host named in them.
    const host = new URL(agent.url).host;
    expect(agent.requests).toEqual([
      `POST /message:send ${host} ${json(SEND)}`,
      `POST /message:stream ${host} ${json(SEND)}`,
    ]);
    expect(err.at(-1)).toBe('2 exchanges, 0 invalid messages');
    expect(code).toBe(0);
  });

  it('without --ca the certificate is not trusted: the client gets a 502 saying why, nothing reaches the agent', async () => {
    const agent = await httpsAgent();
    const { answers, reports } = await throughProxy(agent.url, undefined);
    expect(answers.map((a) => a.status)).toEqual([502, 502]);
    expect(answers[0]?.text).toContain('self-signed certificate');
    expect(reports).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'note',
          message: expect.stringContaining('self-signed certificate'),
        }),
      ]),
    );
    expect(agent.requests).toEqual([]);
  });

  it('--ca is refused for an http agent, and for a file that holds no certificate', async () => {
    await expect(throughProxy('http://127.0.0.1:9', CERT)).rejects.toThrow(UsageError);
    await expect(throughProxy('https://127.0.0.1:9', KEY)).rejects.toThrow(/not PEM certificates/);
    await expect(throughProxy('https://127.0.0.1:9', path.join(FIXTURES, 'missing.pem'))).rejects.toThrow(
      /cannot read it/,
    );
  });
});
