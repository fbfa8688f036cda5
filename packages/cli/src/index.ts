// The agentproto command line. Each command's module (and what it needs: the generator for `generate` and `export`,
// one protocol's validators for `validate`) is imported only when that command runs, so `--help`, `--version` and a
// small `validate` start in a fraction of a second.
import { readFileSync } from 'node:fs';
import { printable } from '@agentproto/runtime/contract';
import { Command, CommanderError } from 'commander';
import { paintFor } from './colors.js';
import type { CardSignOptions, CardVerifyOptions } from './commands/card.js';
import type { ConformanceCommandOptions } from './commands/conformance.js';
import type { DiffOptions } from './commands/diff/diff.js';
import type { DocsOptions } from './commands/docs.js';
import type { ExportOptions } from './commands/export.js';
import type { InspectOptions } from './commands/inspect/inspect.js';
import type { NewOptions } from './commands/new/new.js';
import type { ProxyCommandOptions } from './commands/proxy/proxy.js';
import type { ServeOptions } from './commands/serve.js';
import type { InputFormat } from './commands/validate/formats.js';
import type { ValidateReporter } from './commands/validate/reporters.js';
import type { VersionAddOptions } from './commands/version/add.js';
import { ExitCode, ResourceError, UsageError } from './exit-codes.js';
import type { Output } from './output.js';
import { protocolChoices } from './protocols.js';

export { ExitCode, ResourceError, UsageError } from './exit-codes.js';
export type { Output } from './output.js';

const defaultIo: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  stdin: () => process.stdin,
  // Progress only on a terminal: a CI log would fill with it.
  ...(process.stderr.isTTY && !process.env.CI
    ? { progress: (line: string) => process.stderr.write(`\r\u001b[K${line}`) }
    : {}),
  paint: paintFor(process.stdout),
};

/** The version of this package, from its package.json (one folder up from both src/ and dist/). */
function cliVersion(): string {
  // sound: this package's own package.json, which always names its version
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * A reader that goes away (`agentproto validate … | head`) closes the pipe: the rest of the output has nowhere to go,
 * and the command ends quietly instead of dying on EPIPE with a stack trace.
 */
function quietOnClosedPipes(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}

let pipesWatched = false;

/**
 * Runs the agentproto command line and returns its exit code: 0 valid or up to date, 1 invalid or stale, 2 usage
 * errors. Never throws; errors are printed without a stack trace unless --debug is given.
 */
export async function runCli(argv: readonly string[], io: Output = defaultIo): Promise<number> {
  let code: number = ExitCode.ok;
  const debug = argv.includes('--debug');
  if (io === defaultIo) quietOnClosedPipes();
  const program = new Command('agentproto')
    .description('Agent wire protocols as JSON Schema and OpenAPI: generate code, validate messages.')
    .version(cliVersion(), '-V, --version', 'print the version of agentproto')
    .option('--debug', 'print stack traces of unexpected errors')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .addHelpText(
      'after',
      '\nExit codes: 0 valid / up to date / conformant, 1 invalid / stale / a MUST check failed or blocked / a change breaks the --fail-on party, 2 usage error or unreachable target.',
    );
  program
    .command('generate')
    .description('generate types, validators, routes and clients from schemas/')
    .option('--check', 'write nothing; list stale generated files and exit 1 if there are any')
    .option('--root <dir>', 'repository root (default: found from the current folder)')
    .option('--protocol <id...>', 'only these protocols')
    .option('--no-cache', 'run the whole generator even when no input changed since the last run')
    .action(async (opts: { check?: boolean; cache?: boolean; root?: string; protocol?: string[] }) => {
      const { generateCommand } = await import('./commands/generate.js');
      code = await generateCommand(opts, io);
    });
  program
    .command('validate')
    .description('validate JSON messages and streams (NDJSON, server-sent events) against a protocol')
    .argument(
      '<inputs...>',
      'files, folders (every .json, .yaml, .yml, .ndjson, .jsonl and .sse inside, recursively) or - for standard input',
    )
    .requiredOption('--protocol <id[@version]>', `protocol: ${protocolChoices()}`)
    .option(
      '--type <TypeName>',
      "the public type to check against (default: the file's folder name; in a stream, each item's discriminator)",
    )
    .option(
      '--format <format>',
      'auto (by file extension, else by content; NDJSON opening with a JSON-RPC request is a transcript), json, yaml, ndjson, sse, session (a session the inspector saved), or jsonrpc (a JSON-RPC transcript: one message per line, both directions, as on stdio): how each input is framed',
      'auto',
    )
    .option('--reporter <reporter>', 'text (lines as found), json or junit (one document at the end)', 'text')
    .option('--out <file>', 'write the report to this file; standard output gets the summary line')
    .option(
      '--workers <n>',
      'worker threads for NDJSON files checked against one --type',
      (v) => Number(v),
      1,
    )
    .action(
      async (
        inputs: string[],
        opts: {
          protocol: string;
          type?: string;
          format?: InputFormat;
          reporter?: ValidateReporter;
          workers?: number;
          out?: string;
        },
      ) => {
        const { validateCommand } = await import('./commands/validate/validate.js');
        code = await validateCommand(inputs, opts, io);
      },
    );
  program
    .command('new')
    .description('write a new agent project: typed handlers, a conformance test, a README')
    .argument('<dir>', 'the folder to write it to')
    .requiredOption('--protocol <id[@version]>', `protocol: ${protocolChoices()}`)
    .option('--name <name>', "the project's npm name (default: the folder's name)")
    .option('--force', 'write into a folder that is not empty')
    .option(
      '--registry',
      'depend on the published @agentproto packages (version ranges) instead of packing them into vendor/',
    )
    .option(
      '--store <kind>',
      'where a stateful project keeps its tasks and runs by default: memory (installs with no native build), sqlite (better-sqlite3, built with node-gyp) or redis (ioredis)',
    )
    .action(async (dir: string, opts: NewOptions) => {
      const { newCommand } = await import('./commands/new/new.js');
      code = await newCommand(dir, opts, io);
    });
  program
    .command('export')
    .description(
      'write the publishable schemas for other languages: per-type files, bundles (2020-12 and draft-07), OpenAPI, catalog.json, examples',
    )
    .argument('<outdir>', 'where to write them')
    .option('--protocol <id...>', 'only these protocols')
    .option('--root <dir>', 'repository root (default: found from the current folder)')
    .action(async (outdir: string, opts: ExportOptions) => {
      const { exportCommand } = await import('./commands/export.js');
      code = await exportCommand(outdir, opts, io);
    });
  program
    .command('docs')
    .description(
      'build the reference site: every protocol version, operation and type, examples and counterexamples, decisions, changes, search; static and offline',
    )
    .argument('<outdir>', 'where to write it (a new or empty folder, or a site built before)')
    .option('--protocol <id...>', 'only these protocols')
    .option('--root <dir>', 'repository root (default: found from the current folder)')
    .action(async (outdir: string, opts: DocsOptions) => {
      const { docsCommand } = await import('./commands/docs.js');
      code = await docsCommand(outdir, opts, io);
    });
  program
    .command('conformance')
    .description("check a live agent against its protocol's conformance suite")
    .argument(
      '[base-url]',
      "the server's root; the kit adds the protocol's paths (not needed with --coverage alone)",
    )
    .requiredOption('--protocol <id[@version]>', `protocol: ${protocolChoices()}`)
    .option('--level <level>', 'must, should or all: which checks to run', 'all')
    .option('--reporter <reporter>', 'text (with progress), json, junit or markdown', 'text')
    .option('--out <file>', 'write the report to this file')
    .option('--expected-failures <file>', 'YAML or JSON: check id → why it is expected to fail')
    .option('--timeout <ms>', 'how long one request (or one stream chunk) may take (default: 10000)')
    .option(
      '--check-deadline <ms>',
      'how long one check may take, streams included; past it the check fails as cut (default: 60000)',
    )
    .option(
      '--deadline <ms>',
      'how long the whole run may take; past it the checks not finished fail as cut and the command exits (default: 300000)',
    )
    .option(
      '--coverage',
      "show the version's requirements and the checks that cover them (without a URL: only that; with --client: the client's requirements, and with no command only those)",
    )
    .option('--fuzz <n>', 'also send n requests built from the schemas, valid and with one rule broken')
    .option('--seed <n>', 'the seed of the --fuzz requests (default: 1)')
    .option('--fuzz-time <ms>', 'how long the --fuzz requests may take in all (default: 60000)')
    .option(
      '--header <name: value...>',
      'a header every request of the run carries (Authorization: Bearer …), unless a check sets it itself',
    )
    .option(
      '--side-effects',
      'let checks call what the agent declares may change something (an MCP tool not annotated readOnlyHint); off, a run only reads',
    )
    .option(
      '--client [command]',
      "check a client instead: run <command> <url> once per client scenario against a scripted agent on 127.0.0.1 (AGENTPROTO_SCENARIO names the scenario; --timeout is then each scenario's, default 30000); --client --coverage with no command lists the client requirements",
    )
    .option('--scenario <id...>', 'with --client: only these client scenarios')
    .addHelpText(
      'after',
      [
        '',
        'Each check passes (PASS), fails (FAIL), is skipped when the agent does not claim what it needs (SKIP), or is',
        'blocked (BLOCK) when the agent does not answer as the protocol at all: the first request (A2A: the card; MCP:',
        'initialize) got a 404, a page that is not JSON or a body of another shape, and that check fails with one',
        'diagnosis ("… does not answer as a2a@1.0: GET /.well-known/agent-card.json → 404 text/html").',
        'Exit codes: 0 no MUST check failed; 1 a MUST check failed or is blocked, or an expected failure is stale;',
        '2 usage error, or the agent cannot be reached ("connection refused: is the agent running at <url>?").',
        'With --client, the same codes judge the client: 2 also when its command cannot start.',
      ].join('\n'),
    )
    .action(async (target: string | undefined, opts: ConformanceCommandOptions) => {
      const { conformanceCommand } = await import('./commands/conformance.js');
      code = await conformanceCommand(target, opts, io);
    });
  program
    .command('inspect')
    .description(
      'a page on 127.0.0.1 to watch a live agent: its card or handshake, requests built from the schemas, streams checked item by item, the conformance suite, sessions saved as NDJSON',
    )
    .argument('[url]', "the agent's root URL (it can also be given on the page)")
    .requiredOption('--protocol <id[@version]>', `protocol: ${protocolChoices()}`)
    .option('--port <n>', 'the port to listen on, on 127.0.0.1 (default: a free one)')
    .option(
      '--header <name: value...>',
      'a header every request the page sends carries (Authorization: Bearer …); the conformance run does not send it',
    )
    .option(
      '--timeout <ms>',
      'how long one request the page sends may take: its headers and, but for a stream, its whole body (default: 10000)',
    )
    .action(async (target: string | undefined, opts: InspectOptions) => {
      const { inspectCommand } = await import('./commands/inspect/inspect.js');
      code = await inspectCommand(target, opts, io);
    });
  program
    .command('proxy')
    .description(
      'a validating proxy on 127.0.0.1 in front of a live agent: requests and answers pass unchanged (streams event by event), and every message that breaks the protocol is reported as it passes',
    )
    // Both are required: the command checks them itself, so that one usage error names every one missing.
    .usage('<target-url> --protocol <id[@version]> [options]')
    .argument('[target-url]', "the agent's root URL; the proxy's root stands for it (required)")
    .option('--protocol <id[@version]>', `protocol (required): ${protocolChoices()}`)
    .option('--port <n>', 'the port to listen on, on 127.0.0.1 (default: a free one, printed)')
    .option(
      '--session <file>',
      "also write the traffic to this file as a session (the inspector's format), which `agentproto validate --format session` replays",
    )
    .option(
      '--reporter <reporter>',
      'text (a line per issue) or json (an object per invalid message, a line each)',
      'text',
    )
    .option(
      '--ca <file>',
      "PEM certificates an https:// agent's certificate may chain to (a self-signed or private CA's), trusted besides Node's bundled CAs; the agent's certificate is always verified",
    )
    .addHelpText(
      'after',
      [
        '',
        'Requests are checked against the operation (or JSON-RPC method) they call; answers against the declared',
        "responses; stream items against the item type and the protocol's stream rules. Discovery documents that name",
        "the agent's URLs (an A2A card's interfaces) are rewritten to name the proxy. Past a limit (a body over 8 MiB,",
        'an item over 1 Mi characters, more than 64 bodies and streams at once) traffic still passes, unchecked, with a',
        'note. An agent that cannot be reached gets its client a 502 problem answer saying why.',
        'Exit codes (on Ctrl-C): 0 every message checked was valid; 1 one was not; 2 usage error or the port is taken.',
      ].join('\n'),
    )
    .action(async (target: string | undefined, opts: ProxyCommandOptions) => {
      const { proxyCommand } = await import('./commands/proxy/proxy.js');
      code = await proxyCommand(target, opts, io);
    });
  program
    .command('serve')
    .description(
      "start a protocol's reference agent on 127.0.0.1: a known-good agent to point a client or `agentproto conformance` at; Ctrl-C stops it",
    )
    .argument('<protocol>', `id[@version]: ${protocolChoices()}`)
    .option(
      '--port <n>',
      "the port on 127.0.0.1 (default: PORT, else the agent's own, as the README says; 0 picks a free one)",
    )
    .option(
      '--store <spec>',
      'where an agent that keeps state keeps it: memory (default), sqlite:<file> or redis://…',
    )
    .option('--agent <name>', "which of the version's reference agents (default: the first)")
    // A reference agent's own options are the agent's to declare (its binding's `options`) and check.
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      '\nA reference agent may take options of its own after the protocol; one it does not take is a usage error listing those it does.',
    )
    .action(async (protocol: string, opts: ServeOptions, command: { args: string[] }) => {
      const { serveCommand } = await import('./commands/serve.js');
      const at = command.args.indexOf(protocol);
      const rest = command.args.filter((_, i) => i !== at);
      code = await serveCommand(protocol, { ...opts, rest }, io);
    });
  const card = program
    .command('card')
    .description(
      'sign an A2A agent card, or verify its signatures (A2A 1.0 §8.4: JWS over the RFC 8785 form)',
    );
  card
    .command('sign')
    .description('add a signature to an agent card; the signed card goes to standard output (or --out)')
    .argument('<card>', 'the card: a JSON file, or - for standard input')
    .requiredOption(
      '--key <private.jwk>',
      'the private key: a JWK file (EC P-256/P-384/P-521, Ed25519 or RSA)',
    )
    .option(
      '--kid <id>',
      "the key id in the signature (default: the JWK's kid, else its RFC 7638 thumbprint)",
    )
    .option('--jku <url>', 'the URL of the public JWK Set, written in the signature')
    .option('--out <file>', 'write the signed card to this file')
    .action(async (file: string, opts: CardSignOptions) => {
      const { cardSignCommand } = await import('./commands/card.js');
      code = await cardSignCommand(file, opts, io);
    });
  card
    .command('verify')
    .description("verify an agent card's signatures; exits 0 when one verifies, 1 when none does")
    .argument('<card>', 'the card: a JSON file, or - for standard input')
    .requiredOption(
      '--key <public.jwk | jwks-url>',
      'the public key: a JWK file, a JWK Set file (matched by kid), or the http(s) URL of a JWK Set',
    )
    .action(async (file: string, opts: CardVerifyOptions) => {
      const { cardVerifyCommand } = await import('./commands/card.js');
      code = await cardVerifyCommand(file, opts, io);
    });
  program
    .command('diff')
    .description(
      'every change between two versions of a protocol, whom it breaks (senders, receivers) and a message that proves it; the report opens with how many changes break whom',
    )
    .argument(
      '<old>',
      'a protocol version (agentscope@0.1), a folder of schemas, or a bundle (bundle.schema.json)',
    )
    .argument('<new>', 'the same, for the new side')
    .option(
      '--reporter <reporter>',
      'text, json (DiffReport.schema.json) or markdown (for a pull request)',
      'text',
    )
    .option('--out <file>', 'write the report to this file; standard output gets the summary line')
    .option(
      '--breaking-only',
      'list only the changes that break someone; the summary still counts every change',
    )
    .option(
      '--fail-on <party>',
      'exit 1 when a change breaks this party: sender, receiver, any, or none (never)',
      'none',
    )
    .action(async (oldSpec: string, newSpec: string, opts: DiffOptions) => {
      const { diffCommand } = await import('./commands/diff/diff.js');
      code = await diffCommand(oldSpec, newSpec, opts, io);
    });
  program
    .command('version')
    .description('manage the versions of a protocol in a checkout of the repository')
    .command('add')
    .description(
      "start a version as a copy of another: its schemas and examples, its manifest entry, the protocol's package regenerated",
    )
    .argument('<protocol>', 'the protocol id (a folder under schemas/)')
    .argument('<version>', 'the new version (a folder name)')
    .requiredOption('--from <version>', 'the version to copy')
    .option('--root <dir>', 'repository root (default: found from the current folder)')
    .action(async (protocol: string, version: string, opts: VersionAddOptions) => {
      const { versionAddCommand } = await import('./commands/version/add.js');
      code = await versionAddCommand(protocol, version, opts, io);
    });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof UsageError || error instanceof ResourceError) {
      io.err(`agentproto: ${printable(error.message)}`);
      return ExitCode.usage;
    }
    // The generator's diagnostics (file:line and pointer each), recognised by name: the generator is not loaded here.
    if (error instanceof Error && error.name === 'DiagnosticsError') {
      io.err(error.message);
      return ExitCode.invalid;
    }
    // Anything may be thrown: its message and stack are read where it has them.
    const thrown = typeof error === 'object' && error !== null ? error : {};
    io.err(`agentproto: ${('message' in thrown ? thrown.message : undefined) ?? String(error)}`);
    if (debug) io.err(String('stack' in thrown ? thrown.stack : undefined));
    return ExitCode.usage;
  }
  return code;
}
