// One message of a public type checked as every command checks it: its schema (through the version's standalone
// validator), then the protocol's own rules for that type.
import type { ProtocolBinding } from '@agentproto/runtime/contract';
import { describeErrors } from '@agentproto/runtime/contract';

/** One problem with a message: where (a JSON pointer), what was expected, and which keyword or rule says so. */
export interface MessageIssue {
  pointer: string;
  message: string;
  rule: string;
}

/** The issues of `value` as a `typeName`; an unknown type is itself an issue. */
export function checkMessage(binding: ProtocolBinding, typeName: string, value: unknown): MessageIssue[] {
  const validate = binding.validators[typeName];
  if (!validate)
    return [{ pointer: '', message: `${binding.protocol} has no type ${typeName}`, rule: 'type' }];
  let valid: boolean;
  try {
    valid = validate(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [{ pointer: '', message: 'nests too deeply for its schema to be checked', rule: 'depth' }];
  }
  if (!valid)
    return describeErrors(validate.errors).map((i) => ({
      pointer: i.pointer,
      message: i.message,
      rule: i.keyword,
    }));
  return (binding.documentRules?.[typeName]?.(value) ?? []).map((i) => ({ ...i }));
}
