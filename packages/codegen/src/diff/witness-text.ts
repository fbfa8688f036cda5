// A witness as a reader sees it. Where a witness needs a property no schema names (an object opened or closed, a
// bound on the count of properties) or a string no schema spells (a value that is not a `const`), the differ makes
// one up from WITNESS_KEY. The report keeps the message exactly as the validators judged it; the text a person reads
// shows `*` in place of the made-up name, as the change messages do for the same place (`*.name: …`).
import { isRecord } from '../util/json.js';
import { WITNESS_KEY } from './schema/found-change.js';

/** What the text shows for the made-up name: any property, any string. */
export const WITNESS_PLACEHOLDER = '*';

/** A rejection (or any text) with the made-up name shown as `*`: `(root): must NOT have additional properties (*)`. */
export function witnessText(text: string): string {
  return text.replaceAll(WITNESS_KEY, WITNESS_PLACEHOLDER);
}

/**
 * A witness message with the made-up name shown as `*`, in keys (`{"type":"data","*":null}`; numbered ones keep
 * their number, `*2`) and in strings (`"*"`, `"completed*"`). Everything else is the message as it is.
 */
export function witnessShown(message: unknown): unknown {
  if (typeof message === 'string') return witnessText(message);
  if (Array.isArray(message)) return message.map(witnessShown);
  if (!isRecord(message)) return message;
  return Object.fromEntries(Object.entries(message).map(([k, v]) => [witnessText(k), witnessShown(v)]));
}
