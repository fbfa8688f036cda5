// What checking Fixie 1.0 messages needs: the validators and the few-shot grammar, which runs on every handshake
// and few-shot once it passes its schema (Fixie's few-shots are text with a grammar JSON Schema cannot express).
import type { DocumentRule, ProtocolBinding, Validator } from '@agentproto/runtime/documents';
import { validateFewShot, validateFewShots } from '../few-shot/grammar.js';
import { PATHS } from '../generated/1.0/paths.js';
import * as validators from '../generated/1.0/validators.js';

/** A handshake's few-shots, each checked against the grammar (standalone agents have none). */
const handshake: DocumentRule = (value) => {
  const v = value as { type?: string; few_shots?: unknown; conversational?: boolean };
  if (v.type === 'standalone' || !Array.isArray(v.few_shots)) return [];
  return validateFewShots(v.few_shots as string[], { conversational: v.conversational ?? false }).map(
    (i) => ({
      pointer: `/few_shots/${i.fewShot}`,
      message: `line ${i.line} of the few-shot: ${i.message}`,
      rule: i.rule,
    }),
  );
};

/** One few-shot on its own. */
const fewShot: DocumentRule = (value) =>
  validateFewShot(String(value)).map((i) => ({
    pointer: '',
    message: `line ${i.line}: ${i.message}`,
    rule: i.rule,
  }));

/** Fixie 1.0, for validators and the conformance kit: no server, token or client code. */
export const binding: ProtocolBinding = {
  protocol: 'fixie',
  version: '1.0',
  validators: validators as Readonly<Record<string, Validator>>,
  paths: PATHS,
  documentRules: { AgentMetadata: handshake, CodeShotAgentMetadata: handshake, FewShot: fewShot },
};
