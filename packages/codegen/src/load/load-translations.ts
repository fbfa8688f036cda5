// A protocol's translation manifests (`schemas/<id>/translate-<from>.yaml`, listed in protocol.yaml): how the messages
// of one version map to another's, so one handler set written for the `to` version serves the `from` version too.
// The format is the runtime's TranslationTable (@agentproto/runtime/translate) plus `unmatched`: what one side has
// and the other has no counterpart for, each with the reason. This stage reads and shape-checks them; the validate
// stage checks their names against both versions and their coverage against `agentproto diff`.
import path from 'node:path';
import type { TranslationTable } from '@agentproto/runtime/translate';
import type { ValidateFunction } from 'ajv';
import { compileKept } from '../ajv.js';
import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from './load-manifests.js';
import { at, holds, readSource, type SourceFile, type YamlParser } from './source-file.js';

/** A translation manifest as written. */
export interface TranslationManifest extends TranslationTable {
  /**
   * Constructs of either version with no counterpart on the other (a type, `Type.field`, a method or an operationId),
   * each with the reason; `agentproto diff`'s changes about them need no rule.
   */
  unmatched?: Readonly<Record<string, string>>;
}

/** A translation manifest as loaded, with the protocol it belongs to. */
export interface LoadedTranslation {
  protocol: string;
  source: SourceFile<TranslationManifest>;
}

const NAME = { type: 'string', minLength: 1 } as const;
const PATH = { type: 'string', pattern: '^[^/]+(/[^/]+)*$' } as const;
const FIELDS = {
  type: 'object',
  propertyNames: PATH,
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    properties: {
      const: {},
      enum: NAME,
      type: NAME,
      items: NAME,
      values: NAME,
      move: PATH,
      negate: { const: true },
      one: { const: true },
      emptyIsAbsent: { const: true },
      orFrom: PATH,
      default: {},
      template: { type: 'string', pattern: '\\{[A-Za-z_][A-Za-z0-9_]*\\}' },
      derive: {
        type: 'object',
        required: ['from', 'in'],
        additionalProperties: false,
        properties: { from: PATH, in: { type: 'array', minItems: 1 } },
      },
      box: {
        type: 'object',
        required: ['key', 'flag'],
        additionalProperties: false,
        properties: { key: NAME, flag: PATH },
      },
    },
  },
} as const;

/** The translation manifest's own schema. */
export const TRANSLATION_SCHEMA = {
  type: 'object',
  required: ['from', 'to'],
  additionalProperties: false,
  properties: {
    from: NAME,
    to: NAME,
    enums: {
      type: 'object',
      additionalProperties: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
    },
    types: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          to: NAME,
          fields: FIELDS,
          by: NAME,
          enum: NAME,
          list: {
            type: 'object',
            required: ['items', 'at'],
            additionalProperties: false,
            properties: { items: NAME, at: NAME },
          },
          cases: {
            type: 'object',
            minProperties: 1,
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              properties: {
                type: NAME,
                fields: FIELDS,
                wrap: NAME,
                when: { type: 'array', items: NAME, minItems: 1 },
                has: { type: 'array', items: NAME, minItems: 1 },
              },
            },
          },
        },
      },
    },
    methods: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['to'],
        additionalProperties: false,
        properties: { to: NAME, params: NAME, result: NAME, answer: {} },
      },
    },
    operations: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['to'],
        additionalProperties: false,
        properties: {
          to: NAME,
          body: NAME,
          result: NAME,
          params: { type: 'object', additionalProperties: NAME },
        },
      },
    },
    unmatched: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
} as const;

/** A translation manifest as written: a table it has nothing in may be left out. */
type WrittenTranslation = Partial<TranslationManifest> & Pick<TranslationManifest, 'from' | 'to'>;

let validateShape: ValidateFunction<WrittenTranslation> | undefined;

/**
 * Reads every translation manifest the protocol manifests list (YAML parsed with `parseYaml`); a file of the wrong
 * shape is a diagnostic.
 */
export async function loadTranslations(
  root: string,
  manifests: readonly LoadedManifest[],
  diagnostics: Diagnostic[],
  parseYaml?: YamlParser,
): Promise<LoadedTranslation[]> {
  // A file that passes TRANSLATION_SCHEMA is a WrittenTranslation: the schema states the interface.
  validateShape ??= compileKept<WrittenTranslation>(TRANSLATION_SCHEMA);
  const loaded: LoadedTranslation[] = [];
  for (const { manifest } of manifests)
    for (const name of manifest.translations ?? []) {
      const file = path.join(root, 'schemas', manifest.id, name);
      const source = await readSource(root, file, 'yaml', diagnostics, parseYaml);
      if (!source) continue;
      if (!holds(source, validateShape)) {
        for (const e of validateShape.errors ?? []) {
          const extra =
            typeof e.params.additionalProperty === 'string' ? e.params.additionalProperty : undefined;
          diagnostics.push(
            extra === undefined
              ? { ...at(source, e.instancePath), message: `${e.message ?? 'invalid'} (translation manifest)` }
              : {
                  ...at(source, `${e.instancePath}/${extra}`),
                  message: `"${extra}" is not a key of a translation manifest here`,
                },
          );
        }
        continue;
      }
      // Every table is present once loaded; a manifest may leave out those it has nothing in.
      const { value } = source;
      loaded.push({
        protocol: manifest.id,
        source: {
          ...source,
          value: {
            from: value.from,
            to: value.to,
            enums: value.enums ?? {},
            types: value.types ?? {},
            methods: value.methods ?? {},
            operations: value.operations ?? {},
            unmatched: value.unmatched ?? {},
          },
        },
      });
    }
  return loaded;
}
