import { describe, expect, it } from 'vitest';
import * as validators03 from '../generated/0.3/validators.js';
import * as validators from '../generated/1.0/validators.js';
import { createReferenceAgent, referenceAgent } from '../reference-agent/index.js';
import { createA2aServer } from './create-a2a-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

const TOKEN = 'let-me-in';
const errors: unknown[] = [];
const { app } = createReferenceAgent({
  chunkDelayMs: 0,
  extendedCardToken: TOKEN,
  onError: (e) => errors.push(e),
});
const V = { 'A2A-Version': '1.0' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The four ways to ask for the extended card: each binding of 1.0, and of 0.3 (without A2A-Version). */
const ASKS: Array<
  [string, (headers: Record<string, string>) => Response | Promise<Response>, (body: Json) => Json]
> = [
  [
    '1.0 HTTP+JSON',
    (headers) => app.request('/extendedAgentCard', { headers: { ...V, ...headers } }),
    (b) => b,
  ],
  [
    '1.0 JSON-RPC',
    (headers) =>
      app.request('/jsonrpc', {
        method: 'POST',
        headers: { ...V, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' }),
      }),
    (b) => b.result,
  ],
  ['0.3 HTTP+JSON', (headers) => app.request('/v1/card', { headers }), (b) => b],
  [
    '0.3 JSON-RPC',
    (headers) =>
      app.request('/jsonrpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent/getAuthenticatedExtendedCard' }),
      }),
    (b) => b.result,
  ],
];

describe('extended agent card behind a bearer token', () => {
  it('card > the public card declares the capability, the Bearer scheme and its requirement', async () => {
    const card: Json = await (await app.request('/.well-known/agent-card.json')).json();
    expect(validators.AgentCard(card)).toBe(true);
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(card.supportsAuthenticatedExtendedCard).toBe(true);
    // 1.0's form and 0.3's beside it, each valid for its reader.
    expect(validators03.AgentCard(card)).toBe(true);
    expect(card.securitySchemes.bearer).toMatchObject({
      httpAuthSecurityScheme: { scheme: 'Bearer' },
      type: 'http',
      scheme: 'Bearer',
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(card.security).toEqual([{ bearer: [] }]);
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['plan-trip']);
  });
  it.each(ASKS)('%s > without a token: 401 with a Bearer challenge', async (_, ask) => {
    const res = await ask({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="a2a"');
    expect(JSON.stringify(await res.json())).toContain('Authorization: Bearer');
  });
  it.each(ASKS)('%s > a wrong token: 401, invalid_token', async (_, ask) => {
    const res = await ask(bearer('not-it'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
  it.each(ASKS)(
    '%s > the token: the extended card, with the extra skill and the interfaces',
    async (name, ask, of) => {
      const res = await ask(bearer(TOKEN));
      expect(res.status).toBe(200);
      const card = of(await res.json());
      expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['plan-trip', 'test-turns']);
      if (name.startsWith('1.0')) {
        expect(validators.AgentCard(card)).toBe(true);
        expect(card.supportedInterfaces.length).toBeGreaterThan(0);
      } else expect(typeof card.url).toBe('string');
    },
  );
  it('errors > the bodies are each binding error form', async () => {
    const [rest, rpc, rest03, rpc03] = await Promise.all(ASKS.map(async ([, ask]) => (await ask({})).json()));
    expect(validators.ErrorResponse(rest)).toBe(true);
    expect(rest.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    expect(rpc.error.code).toBe(-32000);
    expect(validators03.JSONRPCErrorResponse(rpc03)).toBe(true);
    expect(rpc03.error.code).toBe(-32000);
    expect(rest03.code).toBe(-32000);
    expect(errors).toEqual([]);
  });
  it('capability > declared without an extended card is ExtendedAgentCardNotConfigured (§3.3.4)', async () => {
    const agent = referenceAgent(0);
    agent.card.capabilities.extendedAgentCard = true;
    const server = createA2aServer(agent);
    const res = await server.app.request('/extendedAgentCard', { headers: V });
    expect(res.status).toBe(400);
    expect((await res.json()).error.details[0].reason).toBe('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
  });
  it('refusals > an empty token is refused when the server is made', () => {
    expect(() => createReferenceAgent({ extendedCardToken: ' ' })).toThrow(/must not be empty/);
  });
});
