import { afterEach, describe, expect, it, vi } from 'vitest';
import { createA2aApp } from '../generated/1.0/index.js';
import { GENERATED } from '../generated/modules.js';
import * as real from '../generated/versions.js';
import {
  HANDLER_VERSION,
  NATIVE_VERSIONS,
  SERVED_VERSIONS,
  TRANSLATED,
  VERSION_WHEN_UNSAID,
} from '../version-data.js';

// The versions served are the manifest's (src/generated/versions.ts and translations.ts), not a list in the code: these
// tests change that data, as `agentproto version add` or an edit of protocol.yaml would, and load the server anew.

// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the agent answered
type Json = any;

/** The manifest's data with `edit` applied: the versions, their traits and their generated code. */
function withVersions(edit: { add?: string; traits?: Record<string, Record<string, unknown>> }) {
  const versions = [...real.VERSIONS, ...(edit.add ? [edit.add] : [])];
  const traits: Record<string, unknown> = { ...real.TRAITS };
  // A version added as `version add --from <handler version>` does: the same traits and (here) the same code.
  if (edit.add) traits[edit.add] = real.TRAITS[HANDLER_VERSION];
  for (const [v, t] of Object.entries(edit.traits ?? {}))
    traits[v] = { ...real.TRAITS[HANDLER_VERSION], ...t };
  vi.doMock('../generated/versions.js', () => ({
    ...real,
    VERSIONS: versions,
    TRAITS: traits,
    isVersion: (value: string) => versions.includes(value),
  }));
  vi.doMock('../generated/modules.js', () => ({
    GENERATED: { ...GENERATED, ...(edit.add ? { [edit.add]: GENERATED[HANDLER_VERSION] } : {}) },
  }));
}

/** A reference agent built from the (changed) data, and a JSON-RPC SendMessage with the given headers. */
async function agent() {
  const { createReferenceAgent } = await import('../reference-agent/index.js');
  const { app } = createReferenceAgent({ chunkDelayMs: 0 });
  const send = async (headers: Record<string, string>, method = 'SendMessage'): Promise<Json> => {
    const res = await app.request('/jsonrpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Porto' }] } },
      }),
    });
    return res.json();
  };
  const card: Json = await (await app.request('/.well-known/agent-card.json')).json();
  return { app, send, card };
}

afterEach(() => {
  vi.doUnmock('../generated/versions.js');
  vi.doUnmock('../generated/modules.js');
  vi.resetModules();
});

describe('versions as data', () => {
  it('data > the handler set is the code of the version the data names', () => {
    // The handler set imports one version's generated code; HANDLER_VERSION (the translations' target) must name it.
    expect(GENERATED[HANDLER_VERSION].createA2aApp).toBe(createA2aApp);
    expect(NATIVE_VERSIONS).toContain(HANDLER_VERSION);
  });

  it('data > every version the manifest lists is served, natively unless translated', () => {
    expect([...SERVED_VERSIONS].sort()).toEqual([...real.VERSIONS].sort());
    for (const v of real.VERSIONS) expect(NATIVE_VERSIONS.includes(v)).toBe(TRANSLATED[v] === undefined);
  });

  it('served > a version added beside the handler version is on the card, and answered', async () => {
    withVersions({ add: '9.9' });
    const { app, send, card } = await agent();
    const listed = card.supportedInterfaces.map((i: Json) => `${i.protocolVersion} ${i.protocolBinding}`);
    expect(listed).toEqual(
      expect.arrayContaining(['9.9 JSONRPC', '9.9 HTTP+JSON', `${HANDLER_VERSION} JSONRPC`]),
    );
    const rpc = await send({ 'A2A-Version': '9.9' });
    expect(rpc.error).toBeUndefined();
    expect(rpc.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const rest = await app.request('/message:send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '9.9.1' },
      body: JSON.stringify({
        message: { messageId: 'r', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Oslo' }] },
      }),
    });
    expect(rest.status).toBe(200);
    // What the agent does not list is still refused, naming the added version among those it answers.
    const refused = await send({ 'A2A-Version': '9.8' });
    expect(refused.error.code).toBe(-32009);
    expect(refused.error.message).toContain('9.9');
  });

  it('unsaid > a request without A2A-Version is what the handler version says (here: its own version)', async () => {
    withVersions({ traits: { [HANDLER_VERSION]: { versionWhenUnsaid: HANDLER_VERSION } } });
    const { send } = await agent();
    const answer = await send({});
    expect(answer.error).toBeUndefined();
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it(`unsaid > by the manifest, a request without A2A-Version is ${VERSION_WHEN_UNSAID}, through its translation`, async () => {
    const { send } = await agent();
    // The handler version's method is unknown to the unsaid version's app; the unsaid version's is answered.
    expect((await send({})).error.code).toBe(-32601);
    const legacy = await send({}, TRANSLATED[VERSION_WHEN_UNSAID] ? 'message/send' : 'SendMessage');
    expect(legacy.error?.code).not.toBe(-32009);
    expect(legacy.error?.code).not.toBe(-32601);
  });
});
