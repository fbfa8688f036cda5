// `agentproto version add <protocol> <new> --from <old>`: starts a new version of a protocol as a copy of an old one.
// It copies the version's folder (schemas, OpenAPI and OpenRPC documents, examples, counterexamples, streams) with
// every `$id` moved to the new version, lists the version in the protocol's manifest (its entry copied from the old
// one: the same traits, and the package's stream check and suite, which take the version and so check the new one
// against its own schemas; a template folder of the old version's own is copied for the new one), and regenerates
// the protocol's package: its versions, and the new version's code and entry point. `agentproto diff <protocol>@<old> <protocol>@<new>` then shows exactly what
// the author changes.
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../exit-codes.js';
import type { Output } from '../../output.js';
import { findRoot } from '../../repository-root.js';

/** Options of `agentproto version add`. */
export interface VersionAddOptions {
  from: string;
  root?: string;
}

// A version is a folder name and part of every `$id`: letters, digits, dots, dashes and underscores.
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Adds the version, regenerates, and prints what it wrote and what to run next. */
export async function versionAddCommand(
  protocol: string,
  version: string,
  options: VersionAddOptions,
  io: Output,
): Promise<number> {
  const root = options.root
    ? path.resolve(options.root)
    : findRoot(process.cwd(), '`agentproto version add`');
  const protocolDir = path.join(root, 'schemas', protocol);
  const manifestFile = path.join(protocolDir, 'protocol.yaml');
  if (!existsSync(manifestFile))
    throw new UsageError(`no protocol "${protocol}": schemas/${protocol}/protocol.yaml does not exist`);
  if (!VERSION_NAME.test(version))
    throw new UsageError(
      `"${version}" is not a version name: use letters, digits, dots, dashes and underscores`,
    );
  const { isMap, isScalar, parseDocument, visit } = await import('yaml');
  const doc = parseDocument(await readFile(manifestFile, 'utf8'));
  const versions = doc.get('versions');
  if (!isMap(versions)) throw new UsageError(`schemas/${protocol}/protocol.yaml lists no versions`);
  const source = versions.get(options.from, true);
  if (!isMap(source))
    throw new UsageError(
      `protocol ${protocol} has no version "${options.from}"; known: ${versions.items.map((i) => String((isScalar(i.key) ? i.key.value : undefined) ?? i.key)).join(', ')}`,
    );
  if (versions.has(version) || existsSync(path.join(protocolDir, version)))
    throw new UsageError(`protocol ${protocol} already has a version "${version}"`);
  // The folder: every file, with the old version's `$id`s (and any other mention of its id base) moved.
  const from = path.join(protocolDir, options.from);
  const to = path.join(protocolDir, version);
  await cp(from, to, { recursive: true, errorOnExist: true, force: false });
  const { SCHEMA_ID_BASE } = await import('@agentproto/codegen');
  const oldBase = `${SCHEMA_ID_BASE}/${protocol}/${options.from}/`;
  const newBase = `${SCHEMA_ID_BASE}/${protocol}/${version}/`;
  let copied = 0;
  for (const entry of await readdir(to, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    copied += 1;
    const file = path.join(entry.parentPath, entry.name);
    const text = await readFile(file, 'utf8');
    if (text.includes(oldBase)) await writeFile(file, text.split(oldBase).join(newBase));
  }
  // The manifest entry: the old one's, titled for the new version; anchors stay with the original.
  // sound: yaml's clone keeps the node's class (a map's copy is a map); its declared type is only Collection
  const entry = source.clone() as typeof source;
  visit(entry, {
    Node(_key, node) {
      if ('anchor' in node) delete node.anchor;
    },
  });
  const title = entry.get('title');
  if (typeof title === 'string') entry.set('title', title.split(options.from).join(version));
  // The project template, when its folder is the old version's own (templates/<old>): copied to templates/<new>
  // with its imports of the package's old entry point moved to the new one, so `agentproto new` projects of the new
  // version are typed and checked by the new version's code.
  const templateDir = entry.getIn(['template', 'dir']);
  const packageName = String(doc.get('package'));
  let template = '';
  if (typeof templateDir === 'string' && path.posix.basename(templateDir) === options.from) {
    const packageDir = path.join(root, 'packages', packageName.split('/')[1] ?? '');
    const newDir = path.posix.join(path.posix.dirname(templateDir), version);
    if (existsSync(path.join(packageDir, newDir)))
      throw new UsageError(`${packageName} already has a template folder ${newDir}`);
    await cp(path.join(packageDir, templateDir), path.join(packageDir, newDir), {
      recursive: true,
      errorOnExist: true,
      force: false,
    });
    for (const file of await readdir(path.join(packageDir, newDir), {
      recursive: true,
      withFileTypes: true,
    })) {
      if (!file.isFile()) continue;
      const at = path.join(file.parentPath, file.name);
      const text = await readFile(at, 'utf8');
      let moved = text;
      for (const quote of ["'", '"'])
        moved = moved
          .split(`${quote}${packageName}/${options.from}${quote}`)
          .join(`${quote}${packageName}/${version}${quote}`);
      if (moved !== text) await writeFile(at, moved);
    }
    entry.setIn(['template', 'dir'], newDir);
    template = `${path.relative(root, packageDir)}/${newDir}/`;
  }
  versions.set(doc.createNode(version), entry);
  await writeFile(manifestFile, doc.toString({ lineWidth: 0 }));
  io.out(`copied ${copied} files: schemas/${protocol}/${options.from}/ → schemas/${protocol}/${version}/`);
  if (template) io.out(`copied the project template to ${template}`);
  io.out(
    `listed ${version} in schemas/${protocol}/protocol.yaml (latest is still ${String(doc.get('latest'))})`,
  );
  const { generate } = await import('@agentproto/codegen');
  const result = await generate({ root, protocols: [protocol], check: false });
  io.out(`regenerated: ${result.stale.length} files written`);
  io.out(
    `next: edit schemas/${protocol}/${version}/, then \`agentproto diff ${protocol}@${options.from} ${protocol}@${version}\``,
  );
  return ExitCode.ok;
}
