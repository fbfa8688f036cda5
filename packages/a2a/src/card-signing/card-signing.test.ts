import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalizeAgentCard, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AgentCard } from '../generated/1.0/index.js';
import {
  CardKeyError,
  CardShapeError,
  canonicalAgentCard,
  MAX_SIGNED_CARD_BYTES,
  signAgentCard,
  verifyAgentCard,
} from './index.js';

interface Vectors {
  keys: Record<'EdDSA' | 'ES256', { private: JWK; public: JWK }>;
  vectors: Array<{
    name: string;
    card: Record<string, unknown>;
    canonical: string;
    signatures: Record<'EdDSA' | 'ES256', { protected: string; signature: string }>;
  }>;
}
const VECTORS_FILE = path.resolve(import.meta.dirname, '../../../../schemas/a2a/card-signing-vectors.json');
// sound: the vectors file this repository ships, in the shape its test below checks member by member
const corpus = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as Vectors;
const ALGS = ['ES256', 'EdDSA'] as const;
const keyOf = (alg: (typeof ALGS)[number]) => corpus.keys[alg];
// sound: each vector's card is an AgentCard (a few carry fields beside it, which is what they test)
const cardOf = (name: string) => corpus.vectors.find((v) => v.name === name)?.card as unknown as AgentCard;
const card = cardOf('minimal');
// The SDK's verifier, with one fixed public key whatever the kid.
const sdkVerify = (jwk: JWK) => verifyAgentCardSignature(async () => jwk);
const sdkVerifies = (jwk: JWK) => (c: unknown) => sdkVerify(jwk)(sdkCard(c));
type SdkCard = Parameters<ReturnType<typeof verifyAgentCardSignature>>[0];
// sound: the SDK's AgentCard is the proto's message, read from its JSON form (ours) by its own fromJSON
const sdkCard = (c: unknown) => c as SdkCard;

describe('card signing > round trip', () => {
  it.each(ALGS)('%s > a card we sign verifies with our verifier and the SDK', async (alg) => {
    const signed = await signAgentCard(card, keyOf(alg).private);
    const header = JSON.parse(Buffer.from(signed.signatures?.[0]?.protected ?? '', 'base64url').toString());
    expect(header).toEqual({ alg, typ: 'JOSE', kid: keyOf(alg).private.kid });
    expect(await verifyAgentCard(signed, keyOf(alg).public)).toMatchObject({ valid: true, uncovered: [] });
    await expect(sdkVerifies(keyOf(alg).public)(signed)).resolves.toBeUndefined();
  });

  it.each(ALGS)('%s > a second signature is added beside the first', async (alg) => {
    const twice = await signAgentCard(await signAgentCard(card, keyOf('ES256').private), keyOf(alg).private);
    expect(twice.signatures).toHaveLength(2);
    const result = await verifyAgentCard(twice, keyOf(alg).public);
    expect(result.valid).toBe(true);
    expect(result.signatures.at(-1)?.valid).toBe(true);
  });

  it.each(ALGS)('%s > the wrong public key does not verify', async (alg) => {
    const other = alg === 'ES256' ? 'EdDSA' : 'ES256';
    const signed = await signAgentCard(card, keyOf(alg).private);
    expect((await verifyAgentCard(signed, keyOf(other).public)).valid).toBe(false);
  });
});

describe('card signing > SDK interop', () => {
  const names = corpus.vectors.map((v) => v.name);
  it.each(names)('%s > our canonical form is the SDK’s', (name) => {
    expect(canonicalAgentCard(cardOf(name))).toBe(canonicalizeAgentCard(sdkCard(cardOf(name))));
  });
  it.each(names.flatMap((n) => ALGS.map((a) => [n, a] as const)))(
    '%s > %s > ours verifies with the SDK, the SDK’s verifies with ours',
    async (name, alg) => {
      const given = cardOf(name);
      const { kid } = keyOf(alg).private;
      await expect(
        sdkVerifies(keyOf(alg).public)(await signAgentCard(given, keyOf(alg).private)),
      ).resolves.toBeUndefined();
      const sdkSigned = await generateAgentCardSignature(keyOf(alg).private, {
        alg,
        kid: kid ?? '',
        typ: 'JOSE',
      })(sdkCard(given));
      expect((await verifyAgentCard(sdkSigned, { keys: [keyOf(alg).public] })).valid).toBe(true);
    },
  );
});

describe('card signing > tampering', () => {
  const edits: Array<[string, (c: AgentCard) => AgentCard]> = [
    ['name', (c) => ({ ...c, name: `${c.name}.` })],
    ['description', (c) => ({ ...c, description: '' })],
    ['version', (c) => ({ ...c, version: '1.0.1' })],
    [
      'interface url',
      (c) => ({
        ...c,
        supportedInterfaces: [
          { url: 'https://evil.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
      }),
    ],
    ['capability flipped', (c) => ({ ...c, capabilities: { streaming: false } })],
    ['capability added', (c) => ({ ...c, capabilities: { ...c.capabilities, pushNotifications: false } })],
    ['field added', (c) => ({ ...c, documentationUrl: 'https://evil.example' })],
    [
      'skill tag',
      (c) => ({
        ...c,
        skills: [{ id: 'echo', name: 'Echo', description: 'Says it again.', tags: ['echo', 'more'] }],
      }),
    ],
    ['skill removed', (c) => ({ ...c, skills: [] })],
    ['input modes reordered', (c) => ({ ...c, defaultInputModes: ['application/json', 'text/plain'] })],
    [
      'security requirement added',
      (c) => ({ ...c, securityRequirements: [{ schemes: { bearer: { list: ['admin'] } } }] }),
    ],
  ];
  it.each(ALGS.flatMap((a) => edits.map(([n, e]) => [a, n, e] as const)))(
    '%s > %s changed > invalid',
    async (alg, _, edit) => {
      const signed = await signAgentCard(card, keyOf(alg).private);
      const result = await verifyAgentCard(
        { ...edit(signed), signatures: signed.signatures },
        keyOf(alg).public,
      );
      expect(result.valid).toBe(false);
      expect(result.signatures[0]?.reason).toMatch(/does not match the card/);
    },
  );

  const headers: Array<[string, (s: { protected: string; signature: string }) => unknown]> = [
    ['signature bytes', (s) => ({ ...s, signature: `${s.signature.slice(0, -4)}AAAA` })],
    [
      'protected header without kid',
      (s) => ({ ...s, protected: Buffer.from('{"alg":"EdDSA","typ":"JOSE"}').toString('base64url') }),
    ],
    ['protected header not JSON', (s) => ({ ...s, protected: 'bm90IGpzb24' })],
    ['not a signature', () => 'a string'],
  ];
  it.each(headers)('EdDSA > %s > invalid, with a reason', async (_, edit) => {
    const signed = await signAgentCard(card, keyOf('EdDSA').private);
    const [entry] = signed.signatures ?? [];
    if (!entry) throw new Error('no signature');
    const result = await verifyAgentCard({ ...signed, signatures: [edit(entry)] }, keyOf('EdDSA').public);
    expect(result.valid).toBe(false);
    expect(result.signatures[0]?.reason).toBeTruthy();
  });
});

describe('card signing > test vectors', () => {
  it.each(corpus.vectors.map((v) => [v.name, v] as const))(
    '%s > canonical bytes and signatures',
    async (_, v) => {
      expect(canonicalAgentCard(v.card)).toBe(v.canonical);
      // Ed25519 is deterministic: signing again gives the recorded signature exactly.
      // sound: the vector's card is an AgentCard (its canonical bytes were checked against the SDK's just above).
      const again = await signAgentCard(v.card as unknown as AgentCard, keyOf('EdDSA').private);
      expect(again.signatures?.at(-1)).toEqual(v.signatures.EdDSA);
      for (const alg of ALGS) {
        const recorded = { ...v.card, signatures: [v.signatures[alg]] };
        expect((await verifyAgentCard(recorded, keyOf(alg).public)).valid).toBe(true);
      }
    },
  );

  it('unknown-fields-and-proto-names > reports what the signatures do not cover', async () => {
    const result = await verifyAgentCard(
      { ...cardOf('unknown-fields-and-proto-names'), signatures: [] },
      keyOf('EdDSA').public,
    );
    expect(result.uncovered).toEqual(['protocolVersion', 'url', 'preferredTransport', 'x-vendor']);
  });
});

describe('card signing > errors', () => {
  const keyCases: Array<[string, JWK, RegExp]> = [
    ['public key to sign', keyOf('ES256').public, /public key: signing needs the private JWK/],
    ['symmetric key', { kty: 'oct', k: 'c2VjcmV0' }, /unsupported key type "oct"/],
    ['Ed448', { kty: 'OKP', crv: 'Ed448', x: 'AA', d: 'AA' }, /unsupported key type "OKP Ed448"/],
    [
      'alg that does not fit',
      { ...keyOf('ES256').private, alg: 'ES384' },
      /"alg" ES384 does not fit a EC P-256 key/,
    ],
    ['broken key', { ...keyOf('EdDSA').private, x: 'AA' }, /the key cannot be used/],
  ];
  it.each(keyCases)('sign > %s > CardKeyError, no key material in it', async (_, jwk, message) => {
    const error = await signAgentCard(card, jwk).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardKeyError);
    expect(String(error)).toMatch(message);
    if (typeof jwk.d === 'string') expect(String(error)).not.toContain(jwk.d);
  });

  it('sign > a card too large > CardShapeError saying its size', async () => {
    const huge = { ...card, description: 'x'.repeat(MAX_SIGNED_CARD_BYTES) };
    await expect(signAgentCard(huge, keyOf('EdDSA').private)).rejects.toThrow(
      /too large to sign: \d+ bytes in canonical form, at most 1048576/,
    );
  });

  it('canonical form > a field of the wrong type > CardShapeError naming it', () => {
    expect(() => canonicalAgentCard({ ...card, skills: [{ ...card.skills[0], tags: 'echo' }] })).toThrow(
      new CardShapeError('card field skills[0].tags: expected an array'),
    );
    expect(() => canonicalAgentCard({ ...card, name: 'lone \ud800' })).toThrow(/no canonical form/);
  });
});
