// MCP's stdio transport for the typed client: the server runs as a child process and the messages go one per line on
// its standard input and output (newline-delimited JSON-RPC in UTF-8; its standard error is its log). The connection
// is connectMcp's, over a fetch that carries each POST's message through the pipes and answers with the server's
// response, so the generated client, the handshake and `_meta` work as they do over HTTP. What the server sends that
// answers nothing goes to `onMessage`; a request of the server's own is answered at once (ping with an empty result,
// anything else "method not found"), since this client offers no capability that needs one.
import { type ChildProcess, spawn } from 'node:child_process';
import { LineSplitter } from '@agentproto/runtime';
import type { LATEST } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';
import type { McpVersion } from '../version-traits.js';
import { connectMcp, type McpConnection, type McpConnectOptions } from './connect.js';

/** How to start an MCP server over stdio, and what the connection allows. */
export interface McpStdioOptions<V extends McpVersion> extends Omit<McpConnectOptions<V>, 'url' | 'fetch'> {
  /** The server's executable. */
  command: string;
  args?: readonly string[];
  /**
   * The server's environment beyond the few variables it inherits (PATH, HOME, USER, LOGNAME, SHELL, TERM, TMPDIR,
   * LANG; not the rest of this process's environment, which may hold secrets the server has no business seeing).
   */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** Told each line the server writes to its standard error (its log); by default they are dropped. */
  onStderr?: (line: string) => void;
  /** The longest line read from the server, in characters (default 64 Mi): a longer one ends the connection. */
  maxLineLength?: number;
}

/** A connection over stdio: closing it ends the server. */
export interface McpStdioConnection<V extends McpVersion> extends McpConnection<V> {
  /** The server's process. */
  readonly process: ChildProcess;
  /**
   * Ends the server as the specification's stdio shutdown says: its input is closed, then after `graceMs` (default
   * 2 s) SIGTERM, then after as long again SIGKILL. Resolves once it has exited.
   */
  close(graceMs?: number): Promise<void>;
}

/** The variables a server inherits when nothing else is said: enough to find programs and a home, no more. */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'TMPDIR', 'LANG'];
const DEFAULT_MAX_LINE = 64 * 1024 * 1024;

/** Starts an MCP server as a child process and connects to it over its standard input and output. */
export async function connectMcpStdio<V extends McpVersion = typeof LATEST>(
  options: McpStdioOptions<V>,
): Promise<McpStdioConnection<V>> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, options.env);
  const child = spawn(options.command, [...(options.args ?? [])], {
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pipes = new StdioPipes(child, options);
  const {
    onStderr: _log,
    maxLineLength: _max,
    command,
    args: _args,
    env: _env,
    cwd: _cwd,
    ...connect
  } = options;
  try {
    await pipes.started;
    const connection = await connectMcp<V>({
      ...connect,
      url: `stdio://${encodeURIComponent(command)}/`,
      fetch: (request) => pipes.exchange(request),
    });
    return Object.assign(connection, {
      process: child,
      close: (graceMs?: number) => pipes.end(graceMs),
    });
  } catch (error) {
    await pipes.end(0);
    throw error;
  }
}

/** The pipes of one server: messages written as lines, responses matched to requests by id. */
class StdioPipes {
  /** Settles once the process has started, or rejects when it could not be started. */
  readonly started: Promise<void>;
  readonly #child: ChildProcess;
  readonly #onMessage: ((message: unknown) => void) | undefined;
  /** Requests waiting for their response, by id (as JSON). */
  readonly #waiting = new Map<
    string,
    { resolve: (answer: unknown) => void; reject: (error: Error) => void }
  >();
  #ended: Error | undefined;
  readonly #exited: Promise<void>;
  #stderrTail: string[] = [];

  constructor(child: ChildProcess, options: McpStdioOptions<McpVersion>) {
    this.#child = child;
    this.#onMessage = options.onMessage;
    this.started = new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => reject(new Error(`cannot start ${options.command}: ${error.message}`)));
    });
    this.started.catch(() => {});
    this.#exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        const tail = this.#stderrTail.length > 0 ? `; its last words: ${this.#stderrTail.join(' | ')}` : '';
        this.#fail(new Error(`${options.command} exited (${signal ?? `code ${code}`})${tail}`));
        resolve();
      });
      child.once('error', () => resolve());
    });
    const lines = new LineSplitter('lf', options.maxLineLength ?? DEFAULT_MAX_LINE);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) =>
      lines.push(text, (line, tooLong) => this.#line(line, tooLong)),
    );
    const log = new LineSplitter('lf', 64 * 1024);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) =>
      log.push(text, (line) => {
        this.#stderrTail = [...this.#stderrTail.slice(-4), line];
        options.onStderr?.(line);
      }),
    );
    // A server that stops reading its input is found by the close above; a write into a closed pipe is not a crash.
    child.stdin?.on('error', () => {});
  }

  /** One message from the server. */
  #line(line: string, tooLong?: number): void {
    if (tooLong !== undefined) {
      this.#fail(new Error(`the server wrote a line of ${tooLong} characters, more than this client reads`));
      this.#child.kill('SIGKILL');
      return;
    }
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      // Not JSON-RPC: the specification says a server writes nothing else to its output; it is its log, misplaced.
      this.#stderrTail = [...this.#stderrTail.slice(-4), line];
      return;
    }
    if (!isObjectLike(message)) return;
    if (typeof message.method === 'string') {
      if ('id' in message) this.#answerServerRequest(message.id, message.method);
      this.#onMessage?.(message);
      return;
    }
    const key = JSON.stringify(message.id);
    const waiter = this.#waiting.get(key);
    if (!waiter) {
      this.#onMessage?.(message);
      return;
    }
    this.#waiting.delete(key);
    waiter.resolve(message);
  }

  /** A request of the server's own: this client offers no capability, so only ping is answered with a result. */
  #answerServerRequest(id: unknown, method: string): void {
    this.#write(
      method === 'ping'
        ? { jsonrpc: '2.0', id, result: {} }
        : { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } },
    );
  }

  #write(message: unknown): void {
    if (this.#ended) throw this.#ended;
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends every wait with the reason the connection ended. */
  #fail(error: Error): void {
    this.#ended ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#ended);
    this.#waiting.clear();
  }

  /** What the client's fetch does: a POST's message written, its response awaited; a notification gets 202. */
  async exchange(request: Request): Promise<Response> {
    // Over stdio there is no session to end: the connection's close ends the process instead.
    if (request.method !== 'POST') return new Response(null, { status: 200 });
    const message: unknown = await request.json();
    const id = isObjectLike(message) ? message.id : undefined;
    if (id === undefined) {
      this.#write(message);
      return new Response(null, { status: 202 });
    }
    const key = JSON.stringify(id);
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#waiting.set(key, { resolve, reject });
      request.signal.addEventListener(
        'abort',
        () => {
          this.#waiting.delete(key);
          reject(request.signal.reason);
        },
        { once: true },
      );
    });
    this.#write(message);
    return Response.json(await answer);
  }

  /** Closes the server's input, then SIGTERM and SIGKILL after `graceMs` each; resolves once it has exited. */
  async end(graceMs = 2_000): Promise<void> {
    this.#fail(new Error('the connection was closed'));
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.stdin?.end();
    const exited = (ms: number) =>
      Promise.race([
        this.#exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), ms).unref()),
      ]);
    if (await exited(graceMs)) return;
    this.#child.kill('SIGTERM');
    if (await exited(graceMs)) return;
    this.#child.kill('SIGKILL');
    await this.#exited;
  }
}
