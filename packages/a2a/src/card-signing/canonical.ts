// The bytes an agent card's signatures cover (specification 1.0 §8.4.1): the card read as the proto's AgentCard
// message, its fields at their default value and its empty values left out, `signatures` left out, then written as
// RFC 8785 (JCS). Empty values are left out at every depth, required fields included, as the official SDKs do
// (schemas/a2a/DECISIONS.md, "Signed agent cards", says why this and not the letter of §8.4.1's example).
import canonicalize from 'canonicalize';
import { isObjectLike } from '../is-object-like.js';

/** A card (or part of one) that cannot be read as the proto's AgentCard: a field of the wrong JSON type. */
export class CardShapeError extends Error {
  override readonly name = 'CardShapeError';
}

/**
 * How one field of the proto is read. `string`, `bool` (a plain proto3 bool: false is its default and is left out),
 * `optional` (a field with presence: any value given is kept), `struct` (google.protobuf.Struct: a JSON object kept
 * as it is), a message, a list or a string-keyed map of one of those, or a message whose fields form one `oneof`.
 */
type Shape =
  | 'string'
  | 'bool'
  | 'optional-string'
  | 'optional-bool'
  | 'struct'
  | { message: Fields; oneof?: true }
  | { list: Shape }
  | { map: Shape };

/** A message's fields in proto order, by their proto (snake_case) names. */
type Fields = ReadonlyArray<readonly [string, Shape]>;

const list = (of: Shape): Shape => ({ list: of });
const map = (of: Shape): Shape => ({ map: of });
const message = (fields: Fields): Shape => ({ message: fields });
const oneof = (fields: Fields): Shape => ({ message: fields, oneof: true });

// The messages an AgentCard holds, as A2A 1.0.1's a2a.proto declares them.
const scopes = map('string');
const flows = oneof([
  [
    'authorization_code',
    message([
      ['authorization_url', 'string'],
      ['token_url', 'string'],
      ['refresh_url', 'string'],
      ['scopes', scopes],
      ['pkce_required', 'bool'],
    ]),
  ],
  [
    'client_credentials',
    message([
      ['token_url', 'string'],
      ['refresh_url', 'string'],
      ['scopes', scopes],
    ]),
  ],
  [
    'implicit',
    message([
      ['authorization_url', 'string'],
      ['refresh_url', 'string'],
      ['scopes', scopes],
    ]),
  ],
  [
    'password',
    message([
      ['token_url', 'string'],
      ['refresh_url', 'string'],
      ['scopes', scopes],
    ]),
  ],
  [
    'device_code',
    message([
      ['device_authorization_url', 'string'],
      ['token_url', 'string'],
      ['refresh_url', 'string'],
      ['scopes', scopes],
    ]),
  ],
]);
const securityScheme = oneof([
  [
    'api_key_security_scheme',
    message([
      ['description', 'string'],
      ['location', 'string'],
      ['name', 'string'],
    ]),
  ],
  [
    'http_auth_security_scheme',
    message([
      ['description', 'string'],
      ['scheme', 'string'],
      ['bearer_format', 'string'],
    ]),
  ],
  [
    'oauth2_security_scheme',
    message([
      ['description', 'string'],
      ['flows', flows],
      ['oauth2_metadata_url', 'string'],
    ]),
  ],
  [
    'open_id_connect_security_scheme',
    message([
      ['description', 'string'],
      ['open_id_connect_url', 'string'],
    ]),
  ],
  ['mtls_security_scheme', message([['description', 'string']])],
]);
const securityRequirement = message([['schemes', map(message([['list', list('string')]]))]]);
const AGENT_CARD: Fields = [
  ['name', 'string'],
  ['description', 'string'],
  [
    'supported_interfaces',
    list(
      message([
        ['url', 'string'],
        ['protocol_binding', 'string'],
        ['tenant', 'string'],
        ['protocol_version', 'string'],
      ]),
    ),
  ],
  [
    'provider',
    message([
      ['url', 'string'],
      ['organization', 'string'],
    ]),
  ],
  ['version', 'string'],
  ['documentation_url', 'optional-string'],
  [
    'capabilities',
    message([
      ['streaming', 'optional-bool'],
      ['push_notifications', 'optional-bool'],
      [
        'extensions',
        list(
          message([
            ['uri', 'string'],
            ['description', 'string'],
            ['required', 'bool'],
            ['params', 'struct'],
          ]),
        ),
      ],
      ['extended_agent_card', 'optional-bool'],
    ]),
  ],
  ['security_schemes', map(securityScheme)],
  ['security_requirements', list(securityRequirement)],
  ['default_input_modes', list('string')],
  ['default_output_modes', list('string')],
  [
    'skills',
    list(
      message([
        ['id', 'string'],
        ['name', 'string'],
        ['description', 'string'],
        ['tags', list('string')],
        ['examples', list('string')],
        ['input_modes', list('string')],
        ['output_modes', list('string')],
        ['security_requirements', list(securityRequirement)],
      ]),
    ),
  ],
  // `signatures` (13) is never part of what is signed.
  ['icon_url', 'optional-string'],
];

/** ProtoJSON's name of a field: lowerCamelCase of the proto name. */
const jsonName = (protoName: string) => protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A field's value under its JSON name, else under its proto name (ProtoJSON readers accept both); null is unset. */
function fieldOf(object: Record<string, unknown>, protoName: string): unknown {
  const camel = object[jsonName(protoName)];
  if (camel !== undefined && camel !== null) return camel;
  const snake = object[protoName];
  return snake === null ? undefined : snake;
}

/** The value read as `shape`, at `path` (for errors); undefined when it is the field's default. */
function read(value: unknown, shape: Shape, path: string): unknown {
  const wrong = (what: string) => new CardShapeError(`card field ${path}: expected ${what}`);
  if (shape === 'string' || shape === 'optional-string') {
    if (typeof value !== 'string') throw wrong('a string');
    return shape === 'string' && value === '' ? undefined : value;
  }
  if (shape === 'bool' || shape === 'optional-bool') {
    if (typeof value !== 'boolean') throw wrong('true or false');
    return shape === 'bool' && !value ? undefined : value;
  }
  if (shape === 'struct') {
    if (!isObjectLike(value) || Array.isArray(value)) throw wrong('an object');
    return value;
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) throw wrong('an array');
    return value.map((item, i) => read(item, shape.list, `${path}[${i}]`));
  }
  if (!isObjectLike(value) || Array.isArray(value)) throw wrong('an object');
  if ('map' in shape) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = read(item, shape.map, `${path}.${key}`);
    return out;
  }
  return readMessage(value, shape.message, path, shape.oneof === true);
}

/** A message's known fields; of a `oneof`, the first member set (in proto order) only, as ProtoJSON readers keep. */
function readMessage(
  record: Record<string, unknown>,
  fields: Fields,
  path: string,
  oneof = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [protoName, shape] of fields) {
    const value = fieldOf(record, protoName);
    if (value === undefined) continue;
    const name = jsonName(protoName);
    const read_ = read(value, shape, path ? `${path}.${name}` : name);
    if (read_ !== undefined) out[name] = read_;
    if (oneof) break;
  }
  return out;
}

/** Leaves out, at every depth, null, "", [] and {} (an object or array left empty by this counts as empty too). */
function withoutEmpty(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (isObjectLike(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = withoutEmpty(item);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}

/** The card as its signatures see it: the proto's fields, defaults and empty values left out, no `signatures`. */
export function signedContent(card: unknown): Record<string, unknown> {
  if (!isObjectLike(card) || Array.isArray(card)) throw new CardShapeError('an agent card is a JSON object');
  const content = withoutEmpty(readMessage(card, AGENT_CARD, ''));
  return isObjectLike(content) ? { ...content } : {};
}

/**
 * The canonical form of a card (specification §8.4.1), the payload its signatures sign: `signedContent` written as
 * RFC 8785 (JCS): members sorted by UTF-16 code units, no whitespace, ECMAScript number and string forms.
 */
export function canonicalAgentCard(card: unknown): string {
  try {
    return canonicalize(signedContent(card)) ?? '{}';
  } catch (error) {
    if (error instanceof CardShapeError) throw error;
    // JCS refuses lone surrogates, NaN and infinities: a card holding one has no canonical form.
    throw new CardShapeError(
      `the card has no canonical form: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/**
 * The top-level and nested members of `card` its signatures do not cover because the proto's AgentCard has no such
 * field (another version's fields, an extension's): dotted paths, empty when the signatures cover every field.
 */
export function uncoveredFields(card: unknown): string[] {
  const content = signedContent(card);
  const out: string[] = [];
  const walk = (given: unknown, kept: unknown, path: string) => {
    if (!isObjectLike(given) || Array.isArray(given)) {
      if (Array.isArray(given) && Array.isArray(kept))
        for (const [i, item] of given.entries()) walk(item, kept[i], `${path}[${i}]`);
      return;
    }
    if (!isObjectLike(kept) || Array.isArray(kept)) return;
    const k = kept;
    for (const [key, value] of Object.entries(given)) {
      if (key === 'signatures' && path === '') continue;
      if (withoutEmpty(value) === undefined || value === false) continue;
      const name = key in k ? key : jsonName(key);
      const at = path ? `${path}.${key}` : key;
      if (!(name in k)) out.push(at);
      else walk(value, k[name], at);
    }
  };
  walk(card, content, '');
  return out;
}
