// `agentproto serve <protocol>[@version]`: starts the protocol package's reference agent for that version on
// 127.0.0.1, so someone outside a checkout has a known-good agent to point a client (or `agentproto conformance`) at.
// Which agent a version has is data: the manifest's `referenceAgent` module, in the version's binding.
import { parseArgs } from 'node:util';
import {
  type AgentStore,
  openStore,
  type ReferenceAgent,
  ReferenceAgentOptionError,
  StoreSpecError,
} from '@agentproto/runtime';
import { ExitCode, UsageError } from '../exit-codes.js';
import type { Output } from '../output.js';
import { resolveBinding } from '../protocols.js';

/** Options of `agentproto serve`. */
export interface ServeOptions {
  /** The port on 127.0.0.1 (default: `PORT`, else the reference agent's own; 0 picks a free one). */
  port?: string;
  /** Where an agent that keeps state keeps it (default: `AGENT_STORE`, else memory). */
  store?: string;
  /** Which of the version's reference agents (default: the first). */
  agent?: string;
  /** The agent's own options as given (`--sign-card key.jwk`): checked against what the agent declares. */
  rest?: readonly string[];
}

/**
 * Serves a protocol version's reference agent until SIGINT or SIGTERM (or, in tests, until `until` settles), then
 * stops it and closes its store. Prints the agent's banner (its URL) once it listens. Usage errors (an unknown
 * protocol, version or agent, a bad port or store, a port in use) are UsageErrors: exit code 2.
 */
export async function serveCommand(
  spec: string,
  options: ServeOptions,
  io: Output,
  until?: Promise<unknown>,
): Promise<number> {
  const binding = await resolveBinding(spec);
  const id = `${binding.protocol}@${binding.version}`;
  if (!binding.referenceAgent) throw new UsageError(`${id} has no reference agent in ${binding.package}`);
  // A version the package's reference agents do not speak (one added with `version add`, say) is refused by name.
  const reference = await binding.referenceAgent().catch((error: Error) => {
    throw new UsageError(`${id}: ${error.message}`);
  });
  // As the start scripts: --port, else PORT, else the agent's own port.
  const portText = options.port ?? process.env.PORT ?? String(reference.port);
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw badPort(options.port === undefined ? 'PORT' : '--port', portText);
  const agent = options.agent ?? reference.agents[0];
  if (agent === undefined || !reference.agents.includes(agent))
    throw new UsageError(`--agent must be one of ${reference.agents.join(', ')} for ${id}, not "${agent}"`);
  if (options.store !== undefined && !reference.keepsState)
    throw new UsageError(`${id}'s reference agent keeps no state: --store does not apply`);
  const values = ownOptions(reference, id, options.rest ?? []);
  let store: AgentStore | undefined;
  if (reference.keepsState)
    store = await openStore(options.store ?? process.env.AGENT_STORE).catch((error: Error) => {
      throw error instanceof StoreSpecError ? new UsageError(`--store: ${error.message}`) : error;
    });
  try {
    const started = await reference
      .start({ port, agent, ...(store ? { store } : {}), ...(values ? { values } : {}) })
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES')
          throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${error.message}`);
        if (error instanceof ReferenceAgentOptionError) throw new UsageError(error.message);
        throw error;
      });
    io.out(started.banner);
    await (until ??
      new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }));
    await started.close();
  } finally {
    await store?.close();
  }
  return ExitCode.ok;
}

/**
 * The values of the agent's own options in `rest` (what the command did not know), by name; undefined when none was
 * given. An option the agent does not declare, or one without its value, is a usage error naming what it takes.
 */
function ownOptions(
  reference: ReferenceAgent,
  id: string,
  rest: readonly string[],
): Record<string, string[]> | undefined {
  if (rest.length === 0) return undefined;
  const declared = reference.options ?? {};
  const takes = Object.entries(declared).map(([name, o]) => `--${name} ${o.value}`);
  const list = takes.length > 0 ? `it takes ${takes.join(', ')}` : 'it takes none of its own';
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      options: Object.fromEntries(
        Object.keys(declared).map((name) => [name, { type: 'string' as const, multiple: true }]),
      ),
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(
      `${id}'s reference agent: ${error instanceof Error ? error.message : String(error)}; ${list}`,
    );
  }
  const values: Record<string, string[]> = {};
  for (const [name, given] of Object.entries(parsed.values)) {
    const all = (Array.isArray(given) ? given : [given]).filter((v): v is string => typeof v === 'string');
    if (all.length > 1 && !declared[name]?.repeatable) throw new UsageError(`--${name} may be given once`);
    values[name] = all;
  }
  return values;
}

function badPort(source: string, given: string): UsageError {
  return new UsageError(`${source} must be a port number 0–65535 (0 picks a free one), not "${given}"`);
}
