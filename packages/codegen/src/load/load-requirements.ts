// Reads a version's `requirements.yaml`: the normative statements its sources make, in our words, each with an id, a
// level and where it comes from. The conformance suite's checks name the ids they cover; a requirement no check can
// test says why (`excluded`). A file may start from another version's (`extends`): its entries apply, and an entry
// of the same id here takes its place. What a version requires of a client is the same kind of file,
// `client-requirements.yaml`, which the client scenarios' checks cover (it extends another version's client file).
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Requirement } from '@agentproto/runtime/contract';
import type { ValidateFunction } from 'ajv';
import { compileKept } from '../ajv.js';
import type { Diagnostic } from '../diagnostics.js';
import { at, holds, readSource, type SourceFile, type YamlParser } from './source-file.js';

/** The file, in a version's folder, that lists the version's requirements. */
export const REQUIREMENTS_FILE = 'requirements.yaml';

/** The file, in a version's folder, that lists what the version requires of a client (the same shape). */
export const CLIENT_REQUIREMENTS_FILE = 'client-requirements.yaml';

/** What `requirements.yaml` holds. */
export interface RequirementsFile {
  /** Another version of the protocol whose requirements apply here too. */
  extends?: string;
  requirements: Requirement[];
}

/** The requirements file's own schema. */
export const REQUIREMENTS_SCHEMA = {
  type: 'object',
  required: ['requirements'],
  additionalProperties: false,
  properties: {
    extends: { type: 'string', minLength: 1 },
    requirements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'level', 'statement', 'source', 'ref'],
        additionalProperties: false,
        properties: {
          // Lower-case words joined by dots and hyphens: `task.create.answer`.
          id: { type: 'string', pattern: '^[a-z0-9]+(?:[.-][a-z0-9]+)*$' },
          level: { enum: ['MUST', 'SHOULD', 'MAY'] },
          statement: { type: 'string', minLength: 10 },
          source: { enum: ['seed', 'upstream', 'decision'] },
          ref: { type: 'string', minLength: 3 },
          excluded: { type: 'string', minLength: 10 },
        },
      },
    },
  },
} as const;

let validate: ValidateFunction<RequirementsFile> | undefined;

/**
 * Reads and checks `<dir>/<name>` (`requirements.yaml` unless said) if there is one: its shape, ids unique in the
 * file. Returns the file as read (undefined when absent or broken; problems become diagnostics with file, line and
 * pointer). YAML is parsed with `parseYaml` (the locating parser unless said).
 */
export async function readRequirements(
  root: string,
  dir: string,
  diagnostics: Diagnostic[],
  parseYaml?: YamlParser,
  name: string = REQUIREMENTS_FILE,
): Promise<SourceFile<RequirementsFile> | undefined> {
  const file = path.join(dir, name);
  if (
    !(await access(file).then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const source = await readSource(root, file, 'yaml', diagnostics, parseYaml);
  if (!source) return undefined;
  // A file that passes REQUIREMENTS_SCHEMA is a RequirementsFile: the schema states the interface.
  validate ??= compileKept<RequirementsFile>(REQUIREMENTS_SCHEMA);
  if (!holds(source, validate)) {
    for (const e of validate.errors ?? [])
      diagnostics.push({
        ...at(source, e.instancePath),
        message: `${e.message ?? 'invalid'} (${name})`,
      });
    return undefined;
  }
  const seen = new Set<string>();
  source.value.requirements.forEach((r, i) => {
    if (seen.has(r.id))
      diagnostics.push({
        ...at(source, `/requirements/${i}/id`),
        message: `requirement "${r.id}" is listed twice`,
      });
    seen.add(r.id);
  });
  return source;
}

/**
 * A version's requirements with the version it extends resolved: the base's list, then this file's (an id listed in
 * both keeps the base's place and takes this file's entry). `byVersion` holds the versions' own files (`name`: which
 * file they are, for the diagnostics).
 */
export function resolveRequirements(
  version: string,
  byVersion: ReadonlyMap<string, SourceFile<RequirementsFile>>,
  diagnostics: Diagnostic[],
  seen: readonly string[] = [],
  name: string = REQUIREMENTS_FILE,
): Requirement[] {
  const own = byVersion.get(version);
  if (!own) return [];
  const base = own.value.extends;
  if (base === undefined) return own.value.requirements;
  if (!byVersion.has(base) || seen.includes(base)) {
    diagnostics.push({
      ...at(own, '/extends'),
      message: seen.includes(base)
        ? `requirements extend each other in a loop (${[...seen, version, base].join(' → ')})`
        : `extends "${base}", a version with no ${name}`,
    });
    return own.value.requirements;
  }
  const merged = resolveRequirements(base, byVersion, diagnostics, [...seen, version], name).slice();
  for (const r of own.value.requirements) {
    const i = merged.findIndex((m) => m.id === r.id);
    if (i >= 0) merged[i] = r;
    else merged.push(r);
  }
  return merged;
}
