import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CARD_KEYS_PATH, startReferenceAgent } from '@agentproto/a2a/reference-agent/serve';
import { closeLocal } from '@agentproto/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../index.js';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
// sound: the vectors file this repository ships; the test reads its keys and first card
const corpus = JSON.parse(readFileSync(path.join(ROOT, 'schemas/a2a/card-signing-vectors.json'), 'utf8')) as {
  keys: Record<'EdDSA' | 'ES256', { private: Record<string, string>; public: Record<string, string> }>;
  vectors: Array<{ card: Record<string, unknown> }>;
};
const tmp = mkdtempSync(path.join(tmpdir(), 'agentproto-card-'));
const file = (name: string, value: unknown) => {
  const at = path.join(tmp, name);
  writeFileSync(at, typeof value === 'string' ? value : JSON.stringify(value));
  return at;
};
const card = file('card.json', corpus.vectors[0]?.card);
const edPrivate = file('ed.jwk', corpus.keys.EdDSA.private);
const edPublic = file('ed.pub.jwk', corpus.keys.EdDSA.public);
const esPrivate = file('es.jwk', corpus.keys.ES256.private);
const keySet = file('keys.jwks', { keys: [corpus.keys.ES256.public, corpus.keys.EdDSA.public] });
const signed = path.join(tmp, 'signed.json');

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: async function* () {},
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cli > card sign and verify', () => {
  it('sign then verify > 0, the signature valid', async () => {
    expect(await run(['card', 'sign', card, '--key', edPrivate, '--out', signed])).toMatchObject({ code: 0 });
    const r = await run(['card', 'verify', signed, '--key', edPublic]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/signature 1 \(kid agentproto-test-eddsa, EdDSA\): valid/);
    expect(r.out).toMatch(/signed\.json: valid \(1 of 1 signatures verify\)/);
  });

  it('sign to standard output, with --kid and --jku > the header says them, the key never printed', async () => {
    const r = await run([
      'card',
      'sign',
      card,
      '--key',
      esPrivate,
      '--kid',
      'k-2',
      '--jku',
      'https://a.example/k',
    ]);
    expect(r.code).toBe(0);
    const [entry] = JSON.parse(r.out).signatures;
    expect(JSON.parse(Buffer.from(entry.protected, 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JOSE',
      kid: 'k-2',
      jku: 'https://a.example/k',
    });
    expect(`${r.out}${r.err}`).not.toContain(corpus.keys.ES256.private.d);
  });

  const cases: Array<[string, () => string[], { code: number; text: RegExp }]> = [
    [
      'verify with a JWK Set file > 0',
      () => ['verify', signed, '--key', keySet],
      { code: 0, text: /: valid/ },
    ],
    [
      'verify with the other key > 1',
      () => ['verify', signed, '--key', file('es.pub.jwk', corpus.keys.ES256.public)],
      { code: 1, text: /invalid: .*\n.*signed\.json: invalid \(0 of 1 signatures verify\)/ },
    ],
    [
      'verify a tampered card > 1',
      () => {
        const tampered = JSON.parse(readFileSync(signed, 'utf8'));
        return ['verify', file('tampered.json', { ...tampered, name: 'Other' }), '--key', edPublic];
      },
      { code: 1, text: /does not match the card/ },
    ],
    [
      'verify an unsigned card > 1',
      () => ['verify', card, '--key', edPublic],
      { code: 1, text: /no signatures/ },
    ],
    [
      'sign with a public key > 2',
      () => ['sign', card, '--key', edPublic],
      { code: 2, text: /^agentproto: the key is a public key: signing needs the private JWK \(with "d"\)$/ },
    ],
    [
      'sign with a symmetric key > 2',
      () => ['sign', card, '--key', file('oct.jwk', { kty: 'oct', k: 'c2VjcmV0' })],
      { code: 2, text: /^agentproto: unsupported key type "oct": a card is signed with an EC/ },
    ],
    [
      'sign with a key set > 2',
      () => ['sign', card, '--key', keySet],
      { code: 2, text: /is a JWK Set: signing takes one private JWK/ },
    ],
    [
      'sign a card too large > 2',
      () => [
        'sign',
        file('huge.json', { ...corpus.vectors[0]?.card, description: 'x'.repeat(1 << 20) }),
        '--key',
        edPrivate,
      ],
      { code: 2, text: /^agentproto: the card is too large to sign: \d+ bytes/ },
    ],
    [
      'sign a card that is not JSON > 2',
      () => ['sign', file('bad.json', '{'), '--key', edPrivate],
      { code: 2, text: /bad\.json is not JSON/ },
    ],
    [
      'a missing key file > 2',
      () => ['verify', card, '--key', path.join(tmp, 'nope.jwk')],
      { code: 2, text: /no such file/ },
    ],
    ['no --key > 2', () => ['sign', card], { code: 2, text: /--key/ }],
  ];
  it.each(cases)('%s', async (_, args, want) => {
    const r = await run(['card', ...args()]);
    expect(r.code, `${r.out}\n${r.err}`).toBe(want.code);
    expect(`${r.out}\n${r.err}`.trim()).toMatch(want.text);
  });
});

describe('cli > card verify > a signed reference agent', () => {
  const started = startReferenceAgent(0, { chunkDelayMs: 0 }, corpus.keys.EdDSA.private);
  afterAll(async () => closeLocal(await started));

  it('its served card verifies with the key set at its jku URL > 0', async () => {
    const { url } = await started;
    const served = file('served.json', await (await fetch(`${url}/.well-known/agent-card.json`)).text());
    const r = await run(['card', 'verify', served, '--key', `${url}${CARD_KEYS_PATH}`]);
    expect(r.code, r.out).toBe(0);
    // The 0.3 fields written beside the 1.0 card are not AgentCard fields: the verifier says they are not covered.
    expect(r.out).toMatch(/not covered by the signatures \(not AgentCard fields\): protocolVersion, url/);
  });

  it('an unreachable key set > 2', async () => {
    const r = await run(['card', 'verify', signed, '--key', 'http://127.0.0.1:1/keys.json']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^agentproto: cannot fetch the key set http:\/\/127\.0\.0\.1:1\/keys\.json: /);
  });
});
