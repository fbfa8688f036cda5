// The command line of a reference agent's `start` script. pnpm passes `--` on to the script
// (`pnpm --filter @agentproto/agentscope start -- --port 9000`) and strict `node:util` parseArgs would take it for a
// positional, so a leading `--` is dropped: `start -- --port N` and `start --port N` mean the same. Everything else is
// strict: an unknown option or a bad value is one line on stderr and exit code 2, never a silent default.
import { parseArgs } from 'node:util';
import { errorMessage, isObjectLike } from './unknown-values.js';

/** Exit code of a start script called with an unknown option or a bad value (the CLI's usage errors use it too). */
export const SERVE_USAGE_EXIT_CODE = 2;

/** A bad command line for a start script: what was wrong, in one line. */
export class ServeArgsError extends Error {
  override name = 'ServeArgsError';
}

/** A string option of a start script; `choices` lists every value it takes, when the set is closed. */
export interface ServeStringOption {
  choices?: readonly string[];
  /** What the value is, for the list of options in an error (`<spec>`). */
  value?: string;
  /** Whether the option may be given more than once (`--allow a --allow b`): every value is in `ServeArgs.lists`. */
  repeatable?: boolean;
}

/** The options a start script takes beyond `--port` (which every one takes, with `PORT` as its fallback). */
export interface ServeArgsSpec<S extends string, F extends string> {
  /** The port when neither `--port` nor `PORT` gives one. */
  port: number;
  strings?: { readonly [K in S]: ServeStringOption };
  /** Options without a value (`--standalone`). */
  flags?: readonly F[];
}

/** A start script's command line, parsed and checked. */
export interface ServeArgs<S extends string, F extends string> {
  /** From `--port`, else `PORT`, else the spec's default; 0 picks a free port. */
  port: number;
  strings: { [K in S]?: string };
  /** Every value of each string option, in order (the last one is in `strings`); empty when it is not given. */
  lists: { [K in S]?: string[] };
  flags: { [K in F]: boolean };
}

/**
 * Parses a start script's arguments (`process.argv.slice(2)`): drops one leading `--`, refuses positionals, unknown
 * options, missing values and values outside an option's `choices`, and checks the port (an integer 0–65535, from
 * `--port` or the `PORT` variable). Throws a ServeArgsError whose message ends with the options the script takes.
 */
export function parseServeArgs<S extends string = never, F extends string = never>(
  args: readonly string[],
  spec: ServeArgsSpec<S, F>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServeArgs<S, F> {
  const strings: Readonly<Record<string, ServeStringOption>> = spec.strings ?? {};
  const flags: readonly string[] = spec.flags ?? [];
  const usage = `options: ${[
    '--port <n>',
    ...Object.entries(strings).map(
      ([name, o]) => `--${name} ${o.choices ? o.choices.join('|') : (o.value ?? '<value>')}`,
    ),
    ...flags.map((f) => `--${f}`),
  ].join(', ')}`;
  const fail = (message: string): never => {
    throw new ServeArgsError(`${message} (${usage})`);
  };
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {
    port: { type: 'string' },
  };
  for (const [name, option] of Object.entries(strings))
    options[name] = { type: 'string', ...(option.repeatable ? { multiple: true } : {}) };
  for (const name of flags) options[name] = { type: 'boolean' };
  let values: Record<string, string | boolean | Array<string | boolean> | undefined> = {};
  try {
    ({ values } = parseArgs({
      args: args[0] === '--' ? args.slice(1) : [...args],
      options,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // parseArgs's own messages run to several sentences; say the one thing that is wrong.
    const message = errorMessage(error);
    const code = isObjectLike(error) ? error.code : undefined;
    const quoted = /'(-[^' ]*)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') fail(`unknown option ${quoted ?? message}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      fail(
        quoted && options[quoted.replace(/^-+/, '')]?.type === 'boolean'
          ? `${quoted} takes no value`
          : `${quoted ?? 'an option'} needs a value`,
      );
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      fail(`unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? message}"`);
    fail(message);
  }
  const portText =
    (typeof values.port === 'string' ? values.port : undefined) ?? env.PORT ?? String(spec.port);
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535))
    fail(`${values.port === undefined ? 'PORT' : '--port'} must be a port number 0–65535, not "${portText}"`);
  const parsed: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  for (const [name, option] of Object.entries(strings)) {
    const given = values[name];
    // A string option's value is a string (a list of them when repeatable), or undefined when it is not given.
    const all =
      typeof given === 'string'
        ? [given]
        : Array.isArray(given)
          ? given.filter((v): v is string => typeof v === 'string')
          : [];
    for (const value of all)
      if (option.choices && !option.choices.includes(value))
        fail(`--${name} must be one of ${option.choices.join(', ')}, not "${value}"`);
    const last = all[all.length - 1];
    if (last === undefined) continue;
    parsed[name] = last;
    lists[name] = all;
  }
  return {
    port,
    // sound: each key of `parsed` is a name of spec.strings (an S), and `flags` has one entry per flag of F.
    strings: parsed as ServeArgs<S, F>['strings'],
    // sound: as `strings`: each key is a name of spec.strings.
    lists: lists as ServeArgs<S, F>['lists'],
    flags: Object.fromEntries(flags.map((f) => [f, values[f] === true])) as ServeArgs<S, F>['flags'],
  };
}

/**
 * The whole of a start script: parses `process.argv` with `parseServeArgs`, runs `start` (which opens the store and
 * starts the server) and prints the line it returns. A bad command line, a store that cannot be opened
 * (StoreSpecError) or a port that cannot be listened on is one line on stderr (`serve.ts: unknown option --prot
 * (options: …)`) and exit code 2, never a stack trace.
 */
export async function runServeScript<S extends string = never, F extends string = never>(
  spec: ServeArgsSpec<S, F>,
  start: (args: ServeArgs<S, F>) => Promise<string>,
): Promise<void> {
  const script = process.argv[1]?.split(/[\\/]/).pop() ?? 'start';
  let port = spec.port;
  try {
    const args = parseServeArgs(process.argv.slice(2), spec);
    port = args.port;
    console.log(await start(args));
    endWithScriptShell();
  } catch (error) {
    const { name, code, message }: Record<string, unknown> = isObjectLike(error) ? error : {};
    const listen = code === 'EADDRINUSE' || code === 'EACCES';
    if (!(name === 'ServeArgsError' || name === 'StoreSpecError' || listen)) throw error;
    process.stderr.write(
      `${script}: ${listen ? `cannot listen on 127.0.0.1:${port}: ${message}` : message}\n`,
    );
    process.exit(SERVE_USAGE_EXIT_CODE);
  }
}

/** How often a server started by an npm script looks whether the script's shell is still there, in milliseconds. */
export const SCRIPT_SHELL_POLL_MS = 500;

/**
 * Under an npm (or pnpm) script, ends this process once the shell that started it is gone. A package script runs as
 * `sh -c '<script>'`, and stopping the script (`kill` of npm's process id, which npm passes to the shell) ends the
 * shell but not the node it started: the server would keep the port, orphaned. Writing `exec node …` in the script
 * avoids that on POSIX shells but breaks the script on Windows, so the server watches instead: when its parent changes
 * (it was adopted), it exits. Outside a package script (`npm_lifecycle_event` unset: started by hand, by a process
 * manager, or detached on purpose) nothing is watched. On Windows a process's parent id never changes, so nothing
 * happens there either; stopping a script there ends its process tree.
 */
export function endWithScriptShell(
  env: NodeJS.ProcessEnv = process.env,
  pollMs = SCRIPT_SHELL_POLL_MS,
): void {
  if (!env.npm_lifecycle_event) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, pollMs).unref();
}
