import { describe, expect, it } from 'vitest';
import { prop } from '../../../../test/support/typed.js';
import { connectMcpStdio } from './stdio.js';

/**
 * A scripted stdio server (a Node script given as `-e`): it answers initialize, asks the client a ping and a sampling
 * request of its own, reports their answers in its result to tools/call, and on `tools/call {name: "die"}` writes to
 * its standard error and exits. With STUBBORN set it ignores the end of its input (and SIGTERM too when set to "all").
 */
const SERVER = `
const readline = require('node:readline');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const answers = [];
if (process.env.STUBBORN) setInterval(() => {}, 1000);
if (process.env.STUBBORN === 'all') process.on('SIGTERM', () => {});
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } } });
  if (m.method === 'tools/call' && m.params.name === 'die') { process.stderr.write('out of cheese\\n'); process.exit(3); }
  if (m.method === 'tools/call') {
    send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
    send({ jsonrpc: '2.0', id: 's1', method: 'ping' });
    send({ jsonrpc: '2.0', id: 's2', method: 'sampling/createMessage', params: {} });
    const wait = setInterval(() => {
      if (answers.length < 2) return;
      clearInterval(wait);
      send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(answers) }] } });
    }, 5);
    return;
  }
  if (m.id !== undefined && !m.method) answers.push(m);
}).on('close', () => { if (!process.env.STUBBORN) process.exit(0); });
`;

const start = (env: Record<string, string> = {}) =>
  connectMcpStdio({ command: process.execPath, args: ['-e', SERVER], version: '2025-11-25', env });

describe('connectMcpStdio', () => {
  it("answers the server's own requests (ping with a result, the rest method-not-found) and passes on the rest", async () => {
    const told: unknown[] = [];
    const mcp = await connectMcpStdio({
      command: process.execPath,
      args: ['-e', SERVER],
      version: '2025-11-25',
      onMessage: (m) => told.push(m),
    });
    const result = await mcp.client['tools/call']({ name: 'x', arguments: {} });
    // The result as JSON: its revision types it as a call's result or a task's, and the scripted server sends the first.
    const answers = JSON.parse(JSON.parse(JSON.stringify(result)).content[0].text);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 's1', result: {} },
      {
        jsonrpc: '2.0',
        id: 's2',
        error: { code: -32601, message: 'Method not found: sampling/createMessage' },
      },
    ]);
    expect(told.map((m) => prop(m, 'method'))).toEqual([
      'notifications/message',
      'ping',
      'sampling/createMessage',
    ]);
    await mcp.close();
    expect(mcp.process.exitCode).toBe(0);
  });

  it('a server that exits fails the call waiting on it, naming the exit and its last words', async () => {
    const mcp = await start();
    await expect(mcp.client['tools/call']({ name: 'die', arguments: {} })).rejects.toThrow(
      /exited \(code 3\); its last words: out of cheese/,
    );
    await mcp.close();
  });

  it('close ends a server that ignores the end of its input (SIGTERM), and one that ignores that too (SIGKILL)', async () => {
    const stubborn = await start({ STUBBORN: '1' });
    await stubborn.close(50);
    expect(stubborn.process.signalCode).toBe('SIGTERM');
    const deaf = await start({ STUBBORN: 'all' });
    await deaf.close(50);
    expect(deaf.process.signalCode).toBe('SIGKILL');
  });

  it('a command that cannot start is one error naming it', async () => {
    await expect(
      connectMcpStdio({ command: '/nonexistent/mcp-server', version: '2025-11-25' }),
    ).rejects.toThrow(/cannot start \/nonexistent\/mcp-server: .*ENOENT/);
  });
});
