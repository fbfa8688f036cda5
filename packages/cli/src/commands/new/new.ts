import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { Output } from '../validate.js';
import { projectFiles, resolveTemplate, templateKeys } from './templates.js';

/** Options of `agentproto new`. */
export interface NewOptions {
  protocol: string;
  name?: string;
  force?: boolean;
}

// The version of our packages a new project depends on: this CLI's own, as they are released together.
const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * `agentproto new <dir> --protocol <id>[@<version>] [--name <name>] [--force]`: writes a standalone agent project
 * (package.json on our published packages, typed handlers that already answer validly, a conformance test, a README).
 * Refuses a folder that is not empty unless --force.
 */
export async function newCommand(dir: string, options: NewOptions, io: Output): Promise<number> {
  const key = resolveTemplate(options.protocol);
  if (!key)
    throw new UsageError(
      `no project template for "${options.protocol}"; known: ${templateKeys().join(', ')}`,
    );
  const name = options.name ?? path.basename(path.resolve(dir));
  if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name) || name.length > 214)
    throw new UsageError(
      `"${name}" is not a valid npm package name (lowercase letters, digits, -, ., _); pass --name`,
    );
  if (existsSync(dir)) {
    const entries = await readdir(dir).catch(() => {
      throw new UsageError(`${dir} exists and is not a folder`);
    });
    if (entries.length > 0 && !options.force)
      throw new UsageError(`${dir} is not empty; pass --force to write the project into it anyway`);
  }
  const [protocol = '', version = ''] = key.split('@');
  const files = projectFiles(key, { name, protocol, version, packagesVersion: VERSION });
  for (const f of files) {
    const target = path.join(dir, f.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
  io.out(`wrote a ${key} agent to ${dir}:`);
  for (const f of files) io.out(`  ${f.path}`);
  io.out(`next: cd ${dir} && npm install && npm test && npm start`);
  return ExitCode.ok;
}
