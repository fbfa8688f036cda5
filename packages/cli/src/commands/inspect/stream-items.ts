// What each item of a stream is, and what the stream as a whole answered. Both are read from the version's schemas
// and validators, so no protocol is named here.
//
// An item's label is the variant of its type's union that it is, followed down through nested unions: a
// `discriminator` mapping names it outright; a variant that references a type is the one whose generated validator
// accepts the item (ajv's validators say nothing of the branch that passed, only of those that failed); an inline
// variant is the one whose required members the item has, with the `const`s it names. So an item of
// `StreamResponse` (oneOf { task } | { message } | { statusUpdate } | { artifactUpdate }) reads `statusUpdate`, and
// an item of `StreamFrame` (anyOf StreamEvent | ErrorFrame, StreamEvent a oneOf of its own) `StreamEvent › Message`.
//
// The answer: no binding offers an assembler of its streams (a reducer of the items into the final state), so the
// inspector shows what it can say without one: the last item of each kind, the stream's last item at the end.
import type { JsonSchemaObject, ProtocolBinding, Surface } from '@agentproto/runtime/contract';

/** How many unions deep a label goes. */
const MAX_DEPTH = 4;
/** How many kinds of item the answer tells apart; past that, items count as `other`. */
const MAX_KINDS = 50;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The type a `$ref` names (`Task.schema.json`, or a full `$id` ending so). */
function refName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const file = (ref.split('#')[0] ?? '').split('/').at(-1) ?? '';
  const suffix = '.schema.json';
  return file.endsWith(suffix) && file.length > suffix.length ? file.slice(0, -suffix.length) : undefined;
}

/** Labels stream items by the variant of their type they are. */
export class ItemLabels {
  private readonly schemas = new Map<string, JsonSchemaObject>();

  constructor(
    private readonly binding: ProtocolBinding,
    surface: Surface,
  ) {
    for (const s of surface.schemas) {
      const name = refName(s.$id);
      if (name) this.schemas.set(name, s);
    }
  }

  /** The chain of variants `value` is of the type `typeName` (empty when the type is no union, or none fits). */
  label(typeName: string, value: unknown, depth = 0): string[] {
    const schema = this.schemas.get(typeName);
    if (!schema || depth >= MAX_DEPTH) return [];
    const union =
      (Array.isArray(schema.oneOf) && schema.oneOf) || (Array.isArray(schema.anyOf) && schema.anyOf);
    if (!union) return [];
    const mapped = this.byDiscriminator(schema, value);
    if (mapped) return [mapped, ...this.label(mapped, value, depth + 1)];
    for (const variant of union) {
      if (!isRecord(variant)) continue;
      const name = refName(variant.$ref);
      if (name) {
        const validator = this.binding.validators[name];
        if (validator && (validator.fast ?? validator)(value))
          return [name, ...this.label(name, value, depth + 1)];
      } else {
        const inline = inlineLabel(variant, value);
        if (inline) return [inline];
      }
    }
    return [];
  }

  private byDiscriminator(schema: JsonSchemaObject, value: unknown): string | undefined {
    const d = schema.discriminator;
    if (!isRecord(d) || typeof d.propertyName !== 'string' || !isRecord(d.mapping) || !isRecord(value))
      return undefined;
    const key = value[d.propertyName];
    return typeof key === 'string' ? refName(d.mapping[key]) : undefined;
  }
}

/**
 * The label of an inline variant the value fits: its title, else the names of its required members. A variant that
 * requires nothing and fixes no `const` tells nothing apart, and fits no value here.
 */
function inlineLabel(variant: Record<string, unknown>, value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const required = Array.isArray(variant.required) ? variant.required.map(String) : [];
  const properties = isRecord(variant.properties) ? variant.properties : {};
  const consts = Object.entries(properties).filter(([, s]) => isRecord(s) && 'const' in s);
  if (required.length === 0 && consts.length === 0) return undefined;
  if (!required.every((k) => k in value)) return undefined;
  if (!consts.every(([k, s]) => isRecord(s) && JSON.stringify(value[k]) === JSON.stringify(s.const)))
    return undefined;
  if (typeof variant.title === 'string') return variant.title;
  return required.length > 0
    ? required.join(' + ')
    : consts.map(([k, s]) => `${k}=${JSON.stringify(isRecord(s) ? s.const : undefined)}`).join(' ');
}

/** What a stream answered, as the page shows it once the stream ends. */
export interface StreamAnswer {
  items: number;
  /** The agent closed the stream (not the user, a limit or an error). */
  complete: boolean;
  /** How the answer was put together. */
  assembled: 'last-of-each-kind';
  /** The same, in a sentence for the page. */
  note: string;
  /** Each kind of item seen (its label), how many, and the last one; ordered by last appearance, so the stream's last item is last. */
  kinds: Array<{ label: string; count: number; last: unknown }>;
}

/** Gathers a stream's answer item by item, keeping one item per kind (a bounded number of kinds). */
export class StreamAnswerBuilder {
  private readonly kinds = new Map<string, { count: number; last: unknown }>();
  private items = 0;

  /** One more item, with its label (empty: its type is no union). */
  push(item: unknown, label: readonly string[]): void {
    this.items++;
    let kind = label.length > 0 ? label.join(' › ') : 'item';
    if (!this.kinds.has(kind) && this.kinds.size >= MAX_KINDS) kind = 'other';
    const seen = this.kinds.get(kind);
    // Re-inserted, so the map's order is the order of last appearance.
    this.kinds.delete(kind);
    this.kinds.set(kind, { count: (seen?.count ?? 0) + 1, last: item });
  }

  /** The answer, when the stream has ended. */
  answer(complete: boolean): StreamAnswer {
    return {
      items: this.items,
      complete,
      assembled: 'last-of-each-kind',
      note: "This protocol's binding has no assembler of its streams: shown is the last item of each kind, the stream's last item at the bottom.",
      kinds: [...this.kinds].map(([label, k]) => ({ label, count: k.count, last: k.last })),
    };
  }
}
