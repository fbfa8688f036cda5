// Signing and verifying agent cards (specification 1.0 §8.4.2, §8.4.3): a JWS (RFC 7515) in flattened form over the
// card's canonical bytes, the payload detached, `alg`, `kid` and `typ` in the protected header. Keys are JWKs; a
// private key's members are never written anywhere, errors included.
import {
  base64url,
  calculateJwkThumbprint,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  FlattenedSign,
  flattenedVerify,
  importJWK,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { AgentCard, AgentCardSignature } from '../generated/1.0/index.js';
import { isObjectLike } from '../is-object-like.js';
import { CardShapeError, canonicalAgentCard, uncoveredFields } from './canonical.js';

/** A key that cannot do what was asked: not a JWK, of a type or curve we do not sign with, public where private is needed. */
export class CardKeyError extends Error {
  override readonly name = 'CardKeyError';
}

/** The largest canonical card signed: 1 MiB, far above any real card (the reference agent's is under 1 KiB). */
export const MAX_SIGNED_CARD_BYTES = 1024 * 1024;

/** The algorithms a card is signed and verified with: asymmetric only (a card's key is published). */
export const CARD_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA', 'RS256', 'PS256'] as const;

/** What a key type and curve sign with, when the JWK names no `alg`. */
const DEFAULT_ALGORITHM: Readonly<Record<string, string>> = {
  'EC P-256': 'ES256',
  'EC P-384': 'ES384',
  'EC P-521': 'ES512',
  'OKP Ed25519': 'EdDSA',
  RSA: 'RS256',
};

/** The members of a JWK that are private (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const keyKind = (jwk: JWK) => (jwk.kty === 'RSA' ? 'RSA' : `${jwk.kty} ${jwk.crv ?? ''}`.trim());

/** The algorithm `jwk` signs with: its `alg` when it names one we use and that fits the key, else its type's. */
export function algorithmOf(jwk: JWK): string {
  const kind = keyKind(jwk);
  const fallback = DEFAULT_ALGORITHM[kind];
  if (fallback === undefined)
    throw new CardKeyError(
      `unsupported key type "${kind}": a card is signed with an EC (P-256, P-384, P-521), Ed25519 or RSA key`,
    );
  if (jwk.alg === undefined) return fallback;
  const fits = kind === 'RSA' ? jwk.alg === 'RS256' || jwk.alg === 'PS256' : jwk.alg === fallback;
  if (!fits)
    throw new CardKeyError(`the key's "alg" ${jwk.alg} does not fit a ${kind} key (use ${fallback})`);
  return jwk.alg;
}

/** Reads a JWK, or a JWK Set (`{"keys": [...]}`), from JSON text. */
export function parseKeys(text: string, source = 'the key'): JWK | { keys: JWK[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CardKeyError(`${source} is not JSON (a JWK or a JWK Set)`);
  }
  if (!isObjectLike(value) || Array.isArray(value)) throw new CardKeyError(`${source} is not a JWK`);
  if (Array.isArray(value.keys)) {
    if (!value.keys.every((k) => isObjectLike(k) && typeof k.kty === 'string'))
      throw new CardKeyError(`${source} is a JWK Set with an entry that is not a JWK`);
    // sound: every entry was just checked to be an object with a string `kty`
    return { keys: value.keys as JWK[] };
  }
  if (typeof value.kty !== 'string') throw new CardKeyError(`${source} is not a JWK (no "kty")`);
  // sound: an object with a string `kty`; jose checks the rest when it imports it
  return value as JWK;
}

/** The public half of a JWK: its private members left out. */
export function publicJwk(jwk: JWK): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.includes(name)));
}

/** How a card is signed: the key, and what the protected header says of it. */
export interface CardSigningOptions {
  /** The key id (default: the JWK's `kid`, else its RFC 7638 thumbprint). */
  kid?: string;
  /** Where the public key set is published (`jku`, optional). */
  jku?: string;
}

/** A card signer: adds one signature to the card it is given (keeping the ones it has). */
export type CardSigner = (card: AgentCard) => Promise<AgentCard>;

/**
 * A signer for `privateJwk`. The key is checked and imported here, once: a public key, a symmetric one or a curve we
 * do not sign with is refused with a CardKeyError before any card is signed.
 */
export async function cardSigner(privateJwk: JWK, options: CardSigningOptions = {}): Promise<CardSigner> {
  const alg = algorithmOf(privateJwk);
  if (typeof privateJwk.d !== 'string')
    throw new CardKeyError('the key is a public key: signing needs the private JWK (with "d")');
  let key: Awaited<ReturnType<typeof importJWK>>;
  try {
    key = await importJWK(privateJwk, alg);
  } catch (error) {
    // jose's messages name what is wrong, never a key's value.
    throw new CardKeyError(
      `the key cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const kid = options.kid ?? privateJwk.kid ?? (await calculateJwkThumbprint(publicJwk(privateJwk)));
  const header: JWSHeaderParameters = { alg, typ: 'JOSE', kid, ...(options.jku ? { jku: options.jku } : {}) };
  return async (card) => {
    const payload = new TextEncoder().encode(canonicalAgentCard(card));
    if (payload.byteLength > MAX_SIGNED_CARD_BYTES)
      throw new CardShapeError(
        `the card is too large to sign: ${payload.byteLength} bytes in canonical form, at most ${MAX_SIGNED_CARD_BYTES}`,
      );
    const jws = await new FlattenedSign(payload).setProtectedHeader(header).sign(key);
    const signature: AgentCardSignature = { protected: jws.protected ?? '', signature: jws.signature };
    return { ...card, signatures: [...(card.signatures ?? []), signature] };
  };
}

/** Signs a card with `privateJwk` (see `cardSigner`). */
export async function signAgentCard(
  card: AgentCard,
  privateJwk: JWK,
  options: CardSigningOptions = {},
): Promise<AgentCard> {
  return (await cardSigner(privateJwk, options))(card);
}

/** The keys a card is verified with: one JWK, a JWK Set (matched by `kid`), or the URL of a JWK Set. */
export type CardVerificationKeys = JWK | { keys: JWK[] } | URL;

/** What verifying one signature found. */
export interface SignatureVerdict {
  /** Its place in the card's `signatures`, from 0. */
  index: number;
  kid?: string;
  alg?: string;
  valid: boolean;
  /** Why it is not valid. */
  reason?: string;
}

/** What verifying a card found. */
export interface CardVerification {
  /** At least one signature verifies with the keys given (§8.4.3: one is enough; the others may be other keys'). */
  valid: boolean;
  signatures: SignatureVerdict[];
  /** Members of the card the signatures do not cover (fields the proto's AgentCard does not have). */
  uncovered: string[];
}

/** A key, or a lookup that picks one by the protected header, as jose verifies with. */
type KeyOrLookup = Parameters<typeof flattenedVerify>[1];

/** The key lookup for `keys`; a single JWK is used whatever `kid` the signature names. */
async function keyLookup(keys: CardVerificationKeys): Promise<KeyOrLookup> {
  if (keys instanceof URL) return createRemoteJWKSet(keys, { timeoutDuration: 10_000 });
  if ('keys' in keys) return createLocalJWKSet({ keys: keys.keys.map(publicJwk) });
  try {
    return await importJWK(publicJwk(keys), algorithmOf(keys));
  } catch (error) {
    if (error instanceof CardKeyError) throw error;
    throw new CardKeyError(
      `the key cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Verifies a card's signatures (§8.4.3) against `keys`: each signature's protected header must name `alg`, `kid` and
 * `typ`, and its signature verify over the card's canonical bytes. Where the key comes from, and whether it is to be
 * trusted, is the caller's to decide: a `jku` in a signature is reported, never fetched.
 */
export async function verifyAgentCard(card: unknown, keys: CardVerificationKeys): Promise<CardVerification> {
  if (!isObjectLike(card) || Array.isArray(card)) throw new CardShapeError('an agent card is a JSON object');
  const signatures = Array.isArray(card.signatures) ? card.signatures : [];
  const payload = base64url.encode(canonicalAgentCard(card));
  const lookup = await keyLookup(keys);
  const verdicts: SignatureVerdict[] = [];
  for (const [index, entry] of signatures.entries()) {
    verdicts.push(await verifyOne(index, entry, payload, lookup));
  }
  return { valid: verdicts.some((v) => v.valid), signatures: verdicts, uncovered: uncoveredFields(card) };
}

async function verifyOne(
  index: number,
  entry: unknown,
  payload: string,
  lookup: KeyOrLookup,
): Promise<SignatureVerdict> {
  const invalid = (reason: string, header: JWSHeaderParameters = {}): SignatureVerdict => ({
    index,
    ...(header.kid ? { kid: header.kid } : {}),
    ...(header.alg ? { alg: header.alg } : {}),
    valid: false,
    reason,
  });
  if (!isObjectLike(entry) || typeof entry.protected !== 'string' || typeof entry.signature !== 'string')
    return invalid('not a signature: "protected" and "signature" must be strings');
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader({ protected: entry.protected });
  } catch {
    return invalid('its protected header is not base64url-encoded JSON');
  }
  const missing = (['alg', 'kid', 'typ'] as const).filter((name) => typeof header[name] !== 'string');
  if (missing.length > 0) return invalid(`its protected header has no ${missing.join(', ')}`, header);
  try {
    await flattenedVerify(
      {
        payload,
        protected: entry.protected,
        signature: entry.signature,
        ...(isObjectLike(entry.header) && !Array.isArray(entry.header) ? { header: entry.header } : {}),
      },
      lookup,
      { algorithms: [...CARD_ALGORITHMS] },
    );
  } catch (error) {
    const code = isObjectLike(error) && typeof error.code === 'string' ? error.code : '';
    const reason =
      code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
        ? 'the signature does not match the card (changed since it was signed, or another key signed it)'
        : code === 'ERR_JWKS_NO_MATCHING_KEY'
          ? `no key with kid "${header.kid}" in the key set`
          : `${error instanceof Error ? error.message : String(error)}`;
    return invalid(reason, header);
  }
  // sound: alg and kid were checked to be strings above
  return { index, kid: header.kid as string, alg: header.alg as string, valid: true };
}
