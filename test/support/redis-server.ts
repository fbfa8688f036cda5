// A throwaway redis-server for the second test stage: on 127.0.0.1, on a free port, without persistence, stopped when
// the test is done. redis-server comes from Debian (scripts/install-test-tools.sh installs it); a test never installs it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { requireTool } from './tools.js';

/** A running redis-server. */
export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Starts redis-server and answers once it takes commands (within 10 s, or throws). */
export async function startRedis(): Promise<RedisServer> {
  requireTool('redis-server', 'redis-server', ['--version']);
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await answersPing(port))
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
          child.kill('SIGKILL');
        },
      };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on 127.0.0.1:${port}`);
}
