// `agentproto proxy <target-url> --protocol <id>`: a validating proxy on 127.0.0.1 in front of a live agent. Clients
// talk to it as to the agent; everything passes through unchanged (discovery documents aside, which name the proxy),
// and every message that breaks the protocol is reported as it passes.
import { readFile } from 'node:fs/promises';
import { resolveProxyLimits } from '@agentproto/runtime/contract';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { Output } from '../../output.js';
import { resolveBinding } from '../../protocols.js';
import { startProxy, trustingAlso } from './proxy-server.js';
import { type ProxyReporter, reportWriter } from './reporters.js';
import { SessionFile } from './session-file.js';

/** Options of `agentproto proxy`. */
export interface ProxyCommandOptions {
  /** The protocol (`id[@version]`); required, its absence said with the other required arguments missing. */
  protocol?: string;
  port?: string;
  /** Write the traffic to this file, in the inspector's session format. */
  session?: string;
  reporter?: string;
  /** A PEM file of certificates an https agent's certificate may chain to, besides Node's bundled CAs. */
  ca?: string;
}

/** The certificates of `--ca <file>`, checked: an https target, a file that holds PEM certificates Node reads. */
async function readCa(file: string, target: string): Promise<string> {
  if (!/^https:\/\//i.test(target)) throw new UsageError('--ca applies to an https:// agent only');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--ca ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    trustingAlso(text);
  } catch (error) {
    throw new UsageError(
      `--ca ${file}: not PEM certificates: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return text;
}

/**
 * The port of `--port`: decimal digits only, 0 to 65535 (0 picks a free one), no leading zero (`08080` is a typo
 * more often than 8080). Number() alone would read an empty value as 0 and `0x1F90` as 8080.
 */
function portNumber(value: string): number {
  const port = /^(?:0|[1-9][0-9]{0,4})$/.test(value) ? Number(value) : -1;
  if (port < 0 || port > 65535)
    throw new UsageError(
      `--port must be a decimal port number from 0 to 65535 (0 picks a free one), not ${JSON.stringify(value)}`,
    );
  return port;
}

/** How the command is called, as its usage errors say it. */
const USAGE = 'agentproto proxy <target-url> --protocol <id[@version]> [options]';

/**
 * The required arguments that were not given, all of them in one usage error (commander would name the first alone).
 * Returns the target and protocol once both are there.
 */
function required(
  target: string | undefined,
  protocol: string | undefined,
): { target: string; protocol: string } {
  if (target !== undefined && protocol !== undefined) return { target, protocol };
  const missing: string[] = [];
  if (target === undefined) missing.push("the agent's URL <target-url>");
  if (protocol === undefined) missing.push('--protocol <id[@version]>');
  throw new UsageError(`missing ${missing.join(' and ')} (usage: ${USAGE})`);
}

/**
 * Runs the proxy until the process is asked to stop (SIGINT, SIGTERM), or, with `until`, until that promise settles
 * (tests). Exits 0 when every message it checked was valid, 1 when one was not, 2 when it cannot start.
 */
export async function proxyCommand(
  targetGiven: string | undefined,
  options: ProxyCommandOptions,
  io: Output,
  until?: Promise<unknown>,
): Promise<number> {
  const { target, protocol } = required(targetGiven, options.protocol);
  const port = options.port === undefined ? 0 : portNumber(options.port);
  // URL schemes are case-insensitive (RFC 3986 §3.1): HTTP:// is http://.
  if (!/^https?:\/\/\S+$/i.test(target))
    throw new UsageError(`${target}: the agent's URL must be http:// or https://`);
  // A bracket left open, a port past 65535: said here, not later as a port the proxy cannot listen on.
  if (!URL.canParse(target)) throw new UsageError(`${target}: the agent's URL is not a valid URL`);
  const reporter = options.reporter ?? 'text';
  if (reporter !== 'text' && reporter !== 'json')
    throw new UsageError(`--reporter must be text or json, not ${reporter}`);
  const ca = options.ca === undefined ? undefined : await readCa(options.ca, target);
  const binding = await resolveBinding(protocol);
  const limits = resolveProxyLimits();
  const session = options.session
    ? await SessionFile.open(
        options.session,
        {
          agentprotoSession: 1,
          protocol: binding.protocol,
          version: binding.version,
          target,
          started: new Date().toISOString(),
        },
        limits.sessionBacklogBytes,
      ).catch((error: Error) => {
        throw new UsageError(`cannot write the session to ${options.session}: ${error.message}`);
      })
    : undefined;
  const write = reportWriter(reporter satisfies ProxyReporter, io);
  const proxy = await startProxy({
    binding,
    target,
    port,
    limits,
    onReport: write,
    ...(session ? { session } : {}),
    ...(ca === undefined ? {} : { ca }),
  }).catch(async (error: Error) => {
    await session?.close().catch(() => {});
    throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${error.message}`);
  });
  // The banner goes to standard error, so that standard output holds only reports (one JSON object a line with json).
  io.err(
    `proxy for ${binding.protocol}@${binding.version} at ${proxy.url} → ${target}${session ? ` (session: ${options.session})` : ''}; stop with Ctrl-C`,
  );
  await (until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await proxy.close();
  await session?.close();
  const stats = proxy.stats();
  if (session && session.dropped > 0)
    io.err(`${session.dropped} records were not written to ${options.session}: the disk did not keep up`);
  io.err(`${stats.exchanges} exchanges, ${stats.invalid} invalid messages`);
  return stats.invalid > 0 ? ExitCode.invalid : ExitCode.ok;
}
