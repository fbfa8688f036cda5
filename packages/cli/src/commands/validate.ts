import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type JsonSyntaxError, parseJsonWithLocator } from '@agentproto/codegen';
import { describeErrors } from '@agentproto/runtime';
import { ExitCode, UsageError } from '../exit-codes.js';
import { type ProtocolVersion, resolveProtocol } from '../protocols.js';

/** Options of `agentproto validate`. */
export interface ValidateOptions {
  protocol: string;
  type?: string;
}

/** Where the command writes. */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Reads standard input, for the `-` input. */
  stdin: () => Promise<string>;
}

/**
 * `agentproto validate <file|dir|->... --protocol <id>[@<version>] [--type <TypeName>]`.
 * Each JSON document is checked against its type; without --type, a file's type is the name of the folder it is in
 * (the layout of examples/ and counterexamples/). Prints `file:line: pointer: message` per error.
 */
export async function validateCommand(
  inputs: readonly string[],
  options: ValidateOptions,
  io: Output,
): Promise<number> {
  const protocol = await resolveProtocol(options.protocol);
  if (options.type !== undefined) typeValidator(protocol, options.type);
  if (inputs.length === 0) throw new UsageError('name at least one file, folder, or - for standard input');
  const files: string[] = [];
  for (const input of inputs) files.push(...(await expand(input)));
  let invalid = 0;
  for (const file of files) {
    const text = file === '-' ? await io.stdin() : await readFile(file, 'utf8');
    const label = file === '-' ? '<stdin>' : file;
    const typeName = options.type ?? inferType(protocol, file);
    const validate = typeValidator(protocol, typeName);
    let parsed: ReturnType<typeof parseJsonWithLocator>;
    try {
      parsed = parseJsonWithLocator(text);
    } catch (error) {
      const e = error as JsonSyntaxError;
      io.err(`${label}:${e.line}:${e.column}: (root): not JSON: ${e.message}`);
      invalid++;
      continue;
    }
    if (validate(parsed.value)) continue;
    invalid++;
    for (const issue of describeErrors(validate.errors)) {
      const line = parsed.locate(issue.pointer);
      io.err(
        `${label}:${line}: ${issue.pointer === '' ? '(root)' : issue.pointer}: ${issue.message} (${typeName})`,
      );
    }
  }
  const summary = `${files.length - invalid} valid, ${invalid} invalid (${protocol.protocol}@${protocol.version})`;
  io.out(summary);
  return invalid > 0 ? ExitCode.invalid : ExitCode.ok;
}

function typeValidator(protocol: ProtocolVersion, typeName: string) {
  const validate = protocol.validators[typeName];
  if (!validate) {
    throw new UsageError(
      `${protocol.protocol}@${protocol.version} has no type "${typeName}"; known: ${Object.keys(protocol.validators).join(', ')}`,
    );
  }
  return validate;
}

function inferType(protocol: ProtocolVersion, file: string): string {
  const folder = file === '-' ? '' : path.basename(path.dirname(path.resolve(file)));
  if (protocol.validators[folder]) return folder;
  if (protocol.rootType) return protocol.rootType;
  throw new UsageError(
    `cannot tell the type of ${file === '-' ? 'standard input' : file}: pass --type <TypeName> ` +
      `(or keep the file in a folder named after its type)`,
  );
}

async function expand(input: string): Promise<string[]> {
  if (input === '-') return ['-'];
  const info = await stat(input).catch(() => undefined);
  if (!info) throw new UsageError(`cannot read ${input}: no such file or folder`);
  if (info.isFile()) return [input];
  if (!info.isDirectory()) throw new UsageError(`cannot read ${input}: not a file or folder`);
  const out: string[] = [];
  const entries = (await readdir(input, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const e of entries) {
    const p = path.join(input, e.name);
    if (e.isDirectory()) out.push(...(await expand(p)));
    else if (e.name.endsWith('.json')) out.push(p);
  }
  return out;
}
