// Fixie 1.0's document rules, which the generated binding (src/generated/1.0/binding.ts) gathers: the few-shot
// grammar runs on every handshake and few-shot once it passes its schema (Fixie's few-shots are text with a grammar
// JSON Schema cannot express; schemas/fixie/DECISIONS.md 17).
import type { DocumentRule } from '@agentproto/runtime/contract';
import { validateFewShot, validateFewShots } from '../few-shot/grammar.js';

/** A handshake's few-shots, each checked against the grammar (standalone agents have none). */
const handshake: DocumentRule = (value) => {
  // sound: a rule runs once the document passed its schema (AgentMetadata or CodeShotAgentMetadata), whose
  // `type`, `few_shots` and `conversational` are a string, a list of strings and a boolean.
  const v = value as { type?: string; few_shots?: unknown; conversational?: boolean };
  if (v.type === 'standalone' || !Array.isArray(v.few_shots)) return [];
  // sound: as above.
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

/** The rules by type name: a handshake's few-shots (both handshake shapes), and one few-shot on its own. */
export const documentRules: Readonly<Record<string, DocumentRule>> = {
  AgentMetadata: handshake,
  CodeShotAgentMetadata: handshake,
  FewShot: fewShot,
};
