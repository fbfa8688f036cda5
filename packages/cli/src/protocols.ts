import type { StreamCheck, Validator } from '@agentproto/runtime';
import { UsageError } from './exit-codes.js';

/** How a protocol's streams are framed on the wire. */
export type Framing = 'sse' | 'ndjson';

/** A protocol version the CLI knows: its public types' validators, and its stream check if it streams. */
export interface ProtocolVersion {
  protocol: string;
  version: string;
  validators: Readonly<Record<string, Validator>>;
  /** The type of a plain JSON document when --type is not given, if the protocol has one obvious root. */
  rootType?: string;
  /** The protocol's check of a whole stream (each item typed by its discriminator, plus the ordering rules). */
  streamCheck?: () => StreamCheck;
  /** Protocol rules for documents of a type, run once the document passes its schema. */
  documentRules?: Readonly<Record<string, DocumentRule>>;
}

/** A protocol rule over a whole document (one that JSON Schema cannot say), as issues with pointers. */
export type DocumentRule = (value: unknown) => Array<{ pointer: string; message: string; rule: string }>;

interface VersionModule {
  validators: Readonly<Record<string, Validator>>;
  streamCheck?: () => StreamCheck;
  documentRules?: Readonly<Record<string, DocumentRule>>;
}

interface ProtocolEntry {
  latest: string;
  versions: Readonly<Record<string, () => Promise<VersionModule>>>;
}

// Each protocol package's generated validators (and stream rules), loaded only when asked for.
const PROTOCOLS: Readonly<Record<string, ProtocolEntry>> = {
  'agent-protocol': {
    latest: 'v1',
    versions: {
      v1: async () => ({ validators: (await import('@agentproto/agent-protocol/v1')).validators }),
      'v1-awaiting-input': async () => ({
        validators: (await import('@agentproto/agent-protocol/v1-awaiting-input')).validators,
      }),
    },
  },
  'agent-protocol-2025': {
    latest: 'draft-2025-02',
    versions: {
      'draft-2025-02': async () => {
        const m = await import('@agentproto/agent-protocol-2025');
        return {
          validators: m.validators as unknown as Record<string, Validator>,
          streamCheck: m.createStreamCheck,
        };
      },
    },
  },
  fixie: {
    latest: '1.0',
    versions: {
      '1.0': async () => {
        const m = await import('@agentproto/fixie/1.0');
        // The few-shot grammar runs wherever a handshake or a few-shot is validated.
        const handshake: DocumentRule = (value) => {
          const v = value as { type?: string; few_shots?: string[]; conversational?: boolean };
          if (v.type === 'standalone' || !Array.isArray(v.few_shots)) return [];
          return m.validateFewShots(v.few_shots, { conversational: v.conversational ?? false }).map((i) => ({
            pointer: `/few_shots/${i.fewShot}`,
            message: `line ${i.line} of the few-shot: ${i.message}`,
            rule: i.rule,
          }));
        };
        const fewShot: DocumentRule = (value) =>
          m
            .validateFewShot(String(value))
            .map((i) => ({ pointer: '', message: `line ${i.line}: ${i.message}`, rule: i.rule }));
        return {
          validators: m.validators as unknown as Record<string, Validator>,
          documentRules: { AgentMetadata: handshake, CodeShotAgentMetadata: handshake, FewShot: fewShot },
        };
      },
    },
  },
  agentscope: {
    latest: '1.1',
    versions: {
      '0.1': async () => {
        const m = await import('@agentproto/agentscope/0.1');
        return {
          validators: m.validators as unknown as Record<string, Validator>,
          streamCheck: m.createStreamCheck,
        };
      },
      '1.1': async () => {
        const m = await import('@agentproto/agentscope/1.1');
        return {
          validators: m.validators as unknown as Record<string, Validator>,
          streamCheck: m.createStreamCheck,
        };
      },
    },
  },
};

/** Resolves `<id>[@<version>]` to a protocol version; throws a UsageError listing what exists. */
export async function resolveProtocol(spec: string): Promise<ProtocolVersion> {
  const [id = '', requested] = spec.split('@');
  const entry = PROTOCOLS[id];
  if (!entry) throw new UsageError(`unknown protocol "${id}"; known: ${Object.keys(PROTOCOLS).join(', ')}`);
  const version = requested ?? entry.latest;
  const load = entry.versions[version];
  if (!load) {
    throw new UsageError(
      `protocol ${id} has no version "${version}"; known: ${Object.keys(entry.versions).join(', ')}`,
    );
  }
  const loaded = await load();
  // Inline validators (operation_where_index) are internal; public types are PascalCase.
  const validators = Object.fromEntries(
    Object.entries(loaded.validators).filter(([name]) => /^[A-Z]/.test(name)),
  );
  return {
    protocol: id,
    version,
    validators,
    ...(loaded.streamCheck ? { streamCheck: loaded.streamCheck } : {}),
    ...(loaded.documentRules ? { documentRules: loaded.documentRules } : {}),
  };
}
