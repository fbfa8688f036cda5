import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { prop } from '../../../../test/support/typed.js';
import { checkMetadata, createClient, FixieError } from '../client/fixie-client.js';
import { createReferenceAgent, createReferenceStandaloneAgent, FEW_SHOTS } from '../reference-agent/index.js';
import { FIXIE_AUDIENCES, fixieTokenVerifier } from './auth.js';
import { createCodeShotAgent, FixieDefinitionError } from './create-agent.js';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const quiet = { onError: () => {} };

describe('fixie > code-shot agent over app.request()', () => {
  const app = createReferenceAgent({ random: () => 0.5 });
  const statuses: Array<[string, { path: string; init: RequestInit; status: number; want: object }]> = [
    [
      '200 > the seed call, minimal body',
      {
        path: '/genrand',
        init: json({ message: { text: '0, 19' } }),
        status: 200,
        want: { message: { text: '10', embeds: {} } },
      },
    ],
    [
      '404 > an unknown function, ERR_FUNC_NOT_DEFINED',
      {
        path: '/nope',
        init: json({ message: { text: 'x' } }),
        status: 404,
        want: {
          error: {
            code: 'ERR_FUNC_NOT_DEFINED',
            details: { func_name: 'nope', available_funcs: ['genrand', 'roll'] },
          },
        },
      },
    ],
    [
      '422 > the SDK test body {"message":{"ttt":…}}',
      {
        path: '/genrand',
        init: json({ message: { ttt: 'Howdy' } }),
        status: 422,
        want: { errors: [{ pointer: '/message/text' }] },
      },
    ],
    ['400 > not JSON', { path: '/genrand', init: json('{"message":'), status: 400, want: { status: 400 } }],
    [
      '415 > not application/json',
      {
        path: '/genrand',
        init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' },
        status: 415,
        want: { status: 415 },
      },
    ],
    [
      '404 > POST / on a code-shot agent',
      {
        path: '/',
        init: json({ message: { text: 'hi' } }),
        status: 404,
        want: { error: { code: 'ERR_FUNC_NOT_DEFINED' } },
      },
    ],
    [
      '200 > a corpus page',
      {
        path: '/corpus/faq',
        init: json({}),
        status: 200,
        want: { page: { next_page_token: 'p2', documents: [{ source_name: 'faq/1' }] } },
      },
    ],
    [
      '404 > an unknown corpus function',
      {
        path: '/corpus/nope',
        init: json({}),
        status: 404,
        want: { error: { code: 'ERR_FUNC_NOT_DEFINED' } },
      },
    ],
  ];
  it.each(statuses)('%s', async (_, { path, init, status, want }) => {
    const res = await app.request(path, init);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject(want);
  });

  it('500 > a failing function answers ERR_AGENT_UNHANDLED_EXCEPTION and leaks nothing', async () => {
    const errors: unknown[] = [];
    const failing = createCodeShotAgent({
      basePrompt: 'x',
      fewShots: FEW_SHOTS.slice(0, 1),
      functions: {
        genrand: () => {
          throw new Error('secret at /srv/agent/keys.py line 12');
        },
      },
      onError: (e) => errors.push(e),
    });
    const res = await failing.request('/genrand', json({ message: { text: '0, 1' } }));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret|keys\.py|Traceback|\bat /);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'ERR_AGENT_UNHANDLED_EXCEPTION' } });
    expect(errors).toHaveLength(1);
  });

  it('handshake > JSON by default', async () => {
    const res = await app.request('/');
    expect(res.headers.get('content-type')).toBe('application/json');
    const metadata = await res.json();
    expect(metadata).toMatchObject({
      type: 'code_shot',
      few_shots: FEW_SHOTS,
      corpora: [{ func_name: 'faq' }],
    });
    expect(checkMetadata(metadata)).toEqual([]);
  });

  it.each(['application/yaml', 'application/yaml, application/json;q=0.5'])(
    'handshake > YAML when Accept is %s',
    async (accept) => {
      const res = await app.request('/', { headers: { accept } });
      expect(res.headers.get('content-type')).toBe('application/yaml');
      const text = await res.text();
      expect(text).toMatch(/^base_prompt: /);
      expect(parseYaml(text)).toEqual(await (await app.request('/')).json());
    },
  );

  it('handshake > JSON when Accept prefers it', async () => {
    const res = await app.request('/', { headers: { accept: 'application/yaml;q=0.2, application/json' } });
    expect(res.headers.get('content-type')).toBe('application/json');
  });
});

describe('fixie > start-up refusal', () => {
  const base = { basePrompt: 'x', ...quiet };
  const cases: Array<[string, { define: () => unknown; want: RegExp }]> = [
    [
      'a few-shot names a function the agent does not have',
      {
        define: () =>
          createCodeShotAgent({ ...base, fewShots: FEW_SHOTS, functions: { genrand: () => '1' } }),
        want: /few-shot 2, line 2: Func\[roll\] is not a function of this agent .*\[registered-function\]/,
      },
    ],
    [
      'a few-shot breaks the grammar',
      {
        define: () => createCodeShotAgent({ ...base, fewShots: ['Q: hi\nA: hello\n'], functions: {} }),
        want: /few-shot 1, line 2: ends with a newline \[trailing-newline\]/,
      },
    ],
    [
      'a function name is not a word',
      {
        define: () => createCodeShotAgent({ ...base, fewShots: [], functions: { 'gen-rand': () => '1' } }),
        want: /function "gen-rand" is not a name/,
      },
    ],
    [
      'a custom corpus without its function',
      {
        define: () =>
          createCodeShotAgent({ ...base, fewShots: [], functions: {}, corpora: [{ func_name: 'faq' }] }),
        want: /corpus function "faq" is listed in corpora but not defined/,
      },
    ],
  ];
  it.each(cases)('refuses > %s', (_, { define, want }) => {
    expect(define).toThrow(FixieDefinitionError);
    expect(define).toThrow(want);
  });

  it('accepts > built-in fixie_ functions need no definition; few-shots may be one text', () => {
    const text =
      'Q: What time is it?\nAsk Func[fixie_utc_datetime]: now\nFunc[fixie_utc_datetime] says: 12:00\nA: Noon.\n\nQ: Hi\nA: Hello';
    const app = createCodeShotAgent({ ...base, fewShots: text, functions: {} });
    expect(app).toBeDefined();
  });
});

describe('fixie > bearer tokens', async () => {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk = { ...(await exportJWK(publicKey)), alg: 'EdDSA' };
  const sign = (claims: Record<string, unknown>, audience: string = FIXIE_AUDIENCES[0], key = privateKey) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA' })
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(key);
  const seen: Array<string | null | undefined> = [];
  const app = createCodeShotAgent({
    basePrompt: 'x',
    fewShots: FEW_SHOTS.slice(0, 1),
    functions: {
      genrand: (query, { token }) => {
        seen.push(query.access_token);
        return `called by ${String(token?.claims.aid)}`;
      },
    },
    auth: fixieTokenVerifier({ keys: jwk, allowedAgentId: 'agent-1' }),
  });
  const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const good = await sign({ aid: 'agent-1' });
  const cases: Array<
    [
      string,
      {
        token?: () => Promise<string>;
        body?: Record<string, unknown>;
        path?: string;
        status: number;
        detail?: string;
      },
    ]
  > = [
    ['no token > 403 Not authenticated', { status: 403, detail: 'Not authenticated' }],
    ['no token on the handshake > 403', { path: '/', status: 403, detail: 'Not authenticated' }],
    [
      'another key > 403 Invalid token',
      {
        token: () => sign({ aid: 'agent-1' }, FIXIE_AUDIENCES[0], other.privateKey),
        status: 403,
        detail: 'Invalid token',
      },
    ],
    [
      'wrong audience > 403 Invalid token',
      { token: () => sign({ aid: 'agent-1' }, 'https://example.com'), status: 403, detail: 'Invalid token' },
    ],
    ['no aid > 403 Invalid token', { token: () => sign({}), status: 403, detail: 'Invalid token' }],
    [
      'another agent > 403 Invalid token',
      { token: () => sign({ aid: 'agent-2' }), status: 403, detail: 'Invalid token' },
    ],
    [
      'a different access_token > 403 Mismatched tokens',
      { token: async () => good, body: { access_token: 'other' }, status: 403, detail: 'Mismatched tokens' },
    ],
    ['a valid token > 200', { token: async () => good, status: 200 }],
    ['the same access_token > 200', { token: async () => good, body: { access_token: good }, status: 200 }],
  ];
  it.each([
    ['no exp > refused by default', { exp: false, requireExp: undefined, want: false }],
    ['no exp > accepted when requireExp is off', { exp: false, requireExp: false, want: true }],
    ['exp > accepted', { exp: true, requireExp: undefined, want: true }],
  ])('expiry > %s', async (_, { exp, requireExp, want }) => {
    let jwt = new SignJWT({ aid: 'agent-1' })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setAudience(FIXIE_AUDIENCES[0]);
    if (exp) jwt = jwt.setExpirationTime('5m');
    const verify = fixieTokenVerifier({ keys: jwk, ...(requireExp === undefined ? {} : { requireExp }) });
    const accepted = await Promise.resolve(verify(await jwt.sign(privateKey))).then(Boolean, () => false);
    expect(accepted).toBe(want);
  });

  it.each([
    ['the issuer named > accepted', { iss: 'https://issuer.test', want: true }],
    ['another issuer > refused', { iss: 'https://other.test', want: false }],
    ['no issuer > refused', { iss: undefined, want: false }],
  ])('issuer > %s', async (_, { iss, want }) => {
    const token = await sign({ aid: 'agent-1', ...(iss ? { iss } : {}) });
    const verify = fixieTokenVerifier({ keys: jwk, issuer: 'https://issuer.test' });
    const accepted = await Promise.resolve(verify(token)).then(Boolean, () => false);
    expect(accepted).toBe(want);
  });

  it.each(cases)('%s', async (_, { token, body, path, status, detail }) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${await token()}`;
    const res = await app.request(path ?? '/genrand', {
      method: path === '/' ? 'GET' : 'POST',
      headers,
      ...(path === '/' ? {} : { body: JSON.stringify({ message: { text: '0, 9' }, ...body }) }),
    });
    expect(res.status).toBe(status);
    if (detail) expect(await res.json()).toEqual({ detail });
  });

  it('access_token > the function sees the bearer token in its place', async () => {
    seen.length = 0;
    const res = await app.request('/genrand', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${good}` },
      body: JSON.stringify({ message: { text: '0, 9' } }),
    });
    expect(await res.json()).toMatchObject({ message: { text: 'called by agent-1' } });
    expect(seen).toEqual([good]);
  });

  it.each([
    ['lots', 'not dice'],
    ['1d0', 'no sides'],
    ['0d6', 'no dice'],
    ['1d1', 'one side'],
  ])('roll > %s (%s) answers how to write dice, not a 500', async (text) => {
    const res = await createReferenceAgent().request('/roll', json({ message: { text } }));
    expect(res.status).toBe(200);
    expect(prop(prop(await res.json(), 'message'), 'text')).toMatch(/NdM/);
  });

  it('auth off > the same agent without a verifier takes every caller', async () => {
    const res = await createReferenceAgent().request('/genrand', json({ message: { text: '0, 9' } }));
    expect(res.status).toBe(200);
  });
});

describe('fixie > typed client', () => {
  const client = (app = createReferenceAgent({ random: () => 0 })) =>
    createClient({ fetch: (r) => app.fetch(r) });

  it.each(['json', 'yaml'] as const)(
    'metadata > reads the %s handshake and checks its few-shots',
    async (format) => {
      const metadata = await client().metadata(format);
      expect(metadata).toMatchObject({ type: 'code_shot', few_shots: FEW_SHOTS });
    },
  );

  it('call > answers, and throws the protocol error code on failure', async () => {
    expect((await client().call('genrand', '5, 9')).message.text).toBe('5');
    const failing = createCodeShotAgent({
      basePrompt: 'fails',
      fewShots: ['Q: break\nAsk Func[broken]: now\nFunc[broken] says: no\nA: It broke.'],
      functions: {
        broken: () => {
          throw new Error('broken on purpose');
        },
      },
      onError: () => {},
    });
    const error = await client(failing)
      .call('broken', 'now')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixieError);
    expect(error).toMatchObject({ status: 500, code: 'ERR_AGENT_UNHANDLED_EXCEPTION' });
    await expect(client().call('nope', 'x')).rejects.toMatchObject({
      status: 404,
      code: 'ERR_FUNC_NOT_DEFINED',
    });
  });

  it("query > reads a standalone agent's NDJSON stream line by line", async () => {
    const app = createReferenceStandaloneAgent();
    const raw = await app.request('/', json({ message: { text: 'Count down from 3' } }));
    expect(raw.headers.get('content-type')).toBe('application/x-ndjson');
    expect((await raw.text()).trim().split('\n')).toHaveLength(4);
    const texts: string[] = [];
    for await (const r of client(app).query('Count down from 3')) texts.push(r.message.text);
    expect(texts).toEqual(['3…', '2…', '1…', 'Liftoff!']);
    expect(await client(app).metadata()).toEqual({
      sample_queries: ['Count down from 3'],
      type: 'standalone',
    });
  });

  it('metadata > refuses a handshake whose few-shots break the grammar', async () => {
    const broken = async () =>
      new Response('base_prompt: x\nfew_shots:\n  - "A: no question"\n', {
        headers: { 'content-type': 'application/yaml' },
      });
    await expect(createClient({ fetch: broken }).metadata('yaml')).rejects.toThrow(
      /\/few_shots\/0: .*pattern|first-line-query/,
    );
  });

  it('corpus > pages through the documents', async () => {
    const first = await client().corpus('faq');
    const second = await client().corpus('faq', { page_token: first.page?.next_page_token ?? '' });
    expect(Buffer.from(second.page?.documents[0]?.content ?? '', 'base64').toString()).toMatch(/six sides/);
    expect(second.page?.next_page_token).toBeUndefined();
  });
});
