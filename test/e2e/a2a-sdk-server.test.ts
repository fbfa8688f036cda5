// Our conformance kit against an agent built with the official A2A SDK's own server classes (@a2a-js/sdk, pinned:
// DefaultRequestHandler behind its Express JSON-RPC and REST handlers), and the SDK server's traffic, captured,
// checked with `agentproto validate --protocol a2a`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runConformance } from '@agentproto/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkAgent, startSdkAgent } from '../support/a2a-sdk-agent.js';
import { runCollected } from '../support/run-cli.js';
import { prop, stringAt } from '../support/typed.js';

/**
 * Where the SDK's server departs from the specification, by check id, with the section it breaks. The test fails when
 * one of these starts passing, or another check fails: the list stays true.
 */
const SDK_DEVIATIONS: Readonly<Record<string, string>> = {
  // Found by the schema-driven checks (--fuzz): the REST handler does not check what it is sent.
  'a2a.fuzz.invalid':
    '§3.3.2, §5.4: a message without role, or with a role that is not a string, and a historyLength over int32 are taken (200), not refused with 400',
  'a2a.fuzz.declared':
    '§4.1.4: the answer to such a request echoes the message back, still without its role; a path with an empty tenant (`//tasks`) is a 404 HTML page',
};

const agents: SdkAgent[] = [];
let base: string;
const quiet = console.error;

/** A server built with the SDK's classes (1.0 only), on 127.0.0.1, with a task store of its own: its root URL. */
async function startSdkServer(): Promise<string> {
  const agent = await startSdkAgent({ legacyCompat: false });
  agents.push(agent);
  return agent.base;
}

beforeAll(async () => {
  // The SDK's handlers log every refusal they send with console.error; the refusals are what the kit asks for.
  console.error = () => {};
  base = await startSdkServer();
});
afterAll(() => {
  console.error = quiet;
  for (const a of agents) a.close();
});

describe('e2e > the conformance kit against a server built with the A2A SDK', () => {
  it('kit > passes what the SDK implements; every failure is a listed deviation', async () => {
    // A server of its own: the schema-driven requests leave tasks the SDK accepted without checking them.
    const report = await runConformance({
      protocol: 'a2a',
      target: await startSdkServer(),
      timeoutMs: 5_000,
      fuzz: { requests: 300, seed: 1 },
    });
    const failed = Object.fromEntries(
      report.checks.filter((c) => c.status === 'fail').map((c) => [c.id, c.message]),
    );
    expect(Object.keys(failed).sort(), JSON.stringify(failed, null, 2)).toEqual(
      Object.keys(SDK_DEVIATIONS).sort(),
    );
    // Only the signature check skips, and the push and extended-card checks: the SDK agent's card is not signed and
    // claims neither push notifications nor an extended card.
    const skipped = report.checks.filter((c) => c.status === 'skip');
    expect(skipped.filter((c) => !/^a2a\.(rest|rpc)\.push-/.test(c.id)).map((c) => c.id)).toEqual([
      'a2a.card.signatures',
      'a2a.rest.extended-card-auth',
      'a2a.rest.extended-card',
      'a2a.rpc.extended-card-auth',
      'a2a.rpc.extended-card',
    ]);
    expect(skipped.filter((c) => c.id.includes('.extended-card')).map((c) => c.message)).toEqual(
      Array(4).fill('the card claims no extended agent card (capabilities.extendedAgentCard)'),
    );
    expect(skipped.filter((c) => c.id.includes('.push-')).map((c) => c.message)).toEqual(
      Array(10).fill('the card claims no push notifications (capabilities.pushNotifications)'),
    );
    expect(report.summary.messagesValidated).toBeGreaterThan(20);
  });

  it('validate > the SDK server traffic, captured, passes agentproto validate --protocol a2a', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'a2a-sdk-traffic-'));
    try {
      const V = { 'A2A-Version': '1.0', 'content-type': 'application/json' };
      const send = {
        message: { messageId: 'capture-1', role: 'ROLE_USER', parts: [{ text: 'Plan a trip to Lisbon' }] },
      };
      const save = async (type: string, name: string, text: string) => {
        await mkdir(path.join(dir, type), { recursive: true });
        await writeFile(path.join(dir, type, name), text);
      };
      await save('AgentCard', 'card.json', await (await fetch(`${base}/.well-known/agent-card.json`)).text());
      const sent = await (
        await fetch(`${base}/a2a/rest/message:send`, {
          method: 'POST',
          headers: V,
          body: JSON.stringify(send),
        })
      ).text();
      await save('SendMessageResponse', 'rest-send.json', sent);
      const taskId = stringAt(prop(JSON.parse(sent), 'task'), 'id');
      await save(
        'Task',
        'rest-get.json',
        await (await fetch(`${base}/a2a/rest/tasks/${taskId}`, { headers: V })).text(),
      );
      await save(
        'ListTasksResponse',
        'rest-list.json',
        await (await fetch(`${base}/a2a/rest/tasks`, { headers: V })).text(),
      );
      await save(
        'ErrorResponse',
        'rest-not-found.json',
        await (await fetch(`${base}/a2a/rest/tasks/nope`, { headers: V })).text(),
      );
      await save(
        'StreamResponse',
        'rest-stream.sse',
        await (
          await fetch(`${base}/a2a/rest/message:stream`, {
            method: 'POST',
            headers: V,
            body: JSON.stringify({ message: { ...send.message, messageId: 'capture-2' } }),
          })
        ).text(),
      );
      const rpc = (method: string, params: unknown) =>
        fetch(`${base}/a2a/jsonrpc`, {
          method: 'POST',
          headers: V,
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
        }).then((r) => r.text());
      await save('JsonRpcResponse', 'rpc-get.json', await rpc('GetTask', { id: taskId }));
      await save('JsonRpcResponse', 'rpc-not-found.json', await rpc('GetTask', { id: 'nope' }));
      await save(
        'StreamResponse',
        'rpc-stream.sse',
        await rpc('SendStreamingMessage', { message: { ...send.message, messageId: 'capture-3' } }),
      );
      const result = await runCollected(['validate', dir, '--protocol', 'a2a']);
      // Seven documents counted by file, the two captured streams by item.
      expect(result.out + result.err).toMatch(
        /\b7 valid, 0 invalid documents; 0 of \d+ items invalid in 2 streams \(a2a@1\.0\)/,
      );
      expect(result.code, result.out + result.err).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
