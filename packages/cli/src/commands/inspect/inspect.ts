// `agentproto inspect [url] --protocol <id>`: the inspector's page on 127.0.0.1, until the command is stopped.
import { serveLocal } from '@agentproto/runtime';
import { ExitCode, UsageError } from '../../exit-codes.js';
import { headerOptions } from '../../header-options.js';
import type { Output } from '../../output.js';
import { resolveBinding } from '../../protocols.js';
import { createInspector } from './inspector-app.js';

/** Options of `agentproto inspect`. */
export interface InspectOptions {
  protocol: string;
  port?: string;
  /** `Name: value` pairs every request the page sends carries. */
  header?: string[];
  /** How long one request the page sends may take, in milliseconds. */
  timeout?: string;
}

/**
 * Serves the inspector for a protocol version (pointed at `target` when given) and resolves when the process is asked
 * to stop (SIGINT, SIGTERM), or, with `until`, when that promise settles (tests).
 */
export async function inspectCommand(
  target: string | undefined,
  options: InspectOptions,
  io: Output,
  until?: Promise<unknown>,
): Promise<number> {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number (0 picks a free one)');
  if (target !== undefined && !/^https?:\/\/\S+$/.test(target))
    throw new UsageError(`${target}: the agent's URL must be http:// or https://`);
  const headers = headerOptions(options.header);
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0))
    throw new UsageError('--timeout must be a positive number of milliseconds');
  const binding = await resolveBinding(options.protocol);
  const { app } = await createInspector({
    binding,
    headers,
    ...(target ? { target } : {}),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const { server, url } = await serveLocal(app.fetch, port).catch((error: Error) => {
    throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${error.message}`);
  });
  io.out(
    `inspector for ${binding.protocol}@${binding.version} at ${url}${target ? ` (agent: ${target})` : ''}; stop with Ctrl-C`,
  );
  await (until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return ExitCode.ok;
}
