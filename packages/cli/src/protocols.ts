import { ConformanceUsageError, resolveSuite } from '@agentproto/conformance';
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

/** The rules each protocol applies to whole documents, beyond its schemas, by type. */
async function documentRules(protocol: string): Promise<Readonly<Record<string, DocumentRule>> | undefined> {
  if (protocol !== 'fixie') return undefined;
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
  return { AgentMetadata: handshake, CodeShotAgentMetadata: handshake, FewShot: fewShot };
}

/**
 * Resolves `<id>[@<version>]` to a protocol version: its validators and stream rules come from the same registry the
 * conformance kit uses, so the CLI and the kit always know the same protocols. Throws a UsageError listing what exists.
 */
export async function resolveProtocol(spec: string): Promise<ProtocolVersion> {
  let binding: Awaited<ReturnType<typeof resolveSuite>>['binding'];
  try {
    ({ binding } = await resolveSuite(spec));
  } catch (error) {
    if (error instanceof ConformanceUsageError) throw new UsageError(error.message);
    throw error;
  }
  // Inline validators (operation_where_index) are internal; public types are PascalCase.
  const validators = Object.fromEntries(
    Object.entries(binding.validators).filter(([name]) => /^[A-Z]/.test(name)),
  );
  const rules = await documentRules(binding.protocol);
  return {
    protocol: binding.protocol,
    version: binding.version,
    validators,
    ...(binding.streamCheck ? { streamCheck: binding.streamCheck } : {}),
    ...(rules ? { documentRules: rules } : {}),
  };
}
