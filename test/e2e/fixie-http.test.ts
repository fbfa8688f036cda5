// Fixie agents over real HTTP on 127.0.0.1 (port 0): both reference agents driven by the typed client, and token
// verification against a JWKS served over HTTP, as the SDK fetched it from the platform.

import { createClient, createCodeShotAgent, fixieTokenVerifier } from '@agentproto/fixie';
import { FEW_SHOTS } from '@agentproto/fixie/reference-agent';
import { startReferenceAgent } from '@agentproto/fixie/reference-agent/serve';
import { serveLocal } from '@agentproto/runtime';
import type { ServerType } from '@hono/node-server';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';

const servers: ServerType[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** Serves on 127.0.0.1 (port 0) until the tests end. */
async function listen(fetch: (r: Request) => Response | Promise<Response>): Promise<string> {
  const { server, url } = await serveLocal(fetch, 0);
  servers.push(server);
  return url;
}

describe('e2e > fixie over HTTP', () => {
  it('code-shot > handshake in both syntaxes, then the seed call', async () => {
    const { server, url } = await startReferenceAgent('code-shot', 0);
    servers.push(server);
    const client = createClient({ baseUrl: url });
    expect(await client.metadata('yaml')).toEqual(await client.metadata('json'));
    const answer = await client.call('genrand', '0, 19');
    const n = Number(answer.message.text);
    expect(Number.isInteger(n) && n >= 0 && n <= 19).toBe(true);
  });

  it('standalone > the NDJSON stream arrives line by line', async () => {
    const { server, url } = await startReferenceAgent('standalone', 0);
    servers.push(server);
    const texts: string[] = [];
    for await (const r of createClient({ baseUrl: url }).query('Count down from 5'))
      texts.push(r.message.text);
    expect(texts).toEqual(['5…', '4…', '3…', '2…', '1…', 'Liftoff!']);
  });

  it('tokens > verified against a JWKS fetched over HTTP', async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), alg: 'EdDSA', kid: 'k1' }] };
    const issuer = await listen(() => Response.json(jwks));
    const agent = createCodeShotAgent({
      basePrompt: 'x',
      fewShots: FEW_SHOTS.slice(0, 1),
      functions: { genrand: () => '4' },
      auth: fixieTokenVerifier({ jwksUrl: `${issuer}/.well-known/jwks.json` }),
    });
    const url = await listen(agent.fetch);
    const token = await new SignJWT({ aid: 'agent-1' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setAudience('https://app.fixie.ai/api')
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await createClient({ baseUrl: url, token }).call('genrand', '0, 9')).message.text).toBe('4');
    await expect(createClient({ baseUrl: url }).call('genrand', '0, 9')).rejects.toMatchObject({
      status: 403,
    });
    await expect(createClient({ baseUrl: url, token: `${token}x` }).metadata()).rejects.toThrow(
      /403: Invalid token/,
    );
  });
});
