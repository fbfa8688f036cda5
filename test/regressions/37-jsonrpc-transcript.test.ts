// Issue 37: a stdio transcript (newline-delimited JSON-RPC, both directions) checked message by message with
// `agentproto validate --format jsonrpc`: requests and notifications by their method's type, results by the type of
// the request they answer, every message by JSON-RPC's envelope.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCollected as run } from '../support/run-cli.js';
import { ROOT } from '../support/spec-files.js';

const example = (type: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(ROOT, 'schemas/mcp/2025-11-25/examples', type, `${name}.json`), 'utf8'));

/** A session as a stdio transport carries it: the handshake, a tool call, and the server asking the client to sample. */
function transcript(): unknown[] {
  const sampling = example('CreateMessageRequest', 'review-summary');
  return [
    { ...example('InitializeRequest', 'minimal-capabilities'), id: 0 },
    {
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'weather', version: '1.0.0' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'forecast', arguments: { city: 'Lisbon' } },
    },
    // The server's own request reuses id 1: each side numbers its own requests.
    { ...sampling, id: 1 },
    { jsonrpc: '2.0', id: 1, result: example('CreateMessageResult', 'text-reply') },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
    { jsonrpc: '2.0', id: 1, result: example('CallToolResult', 'forecast-text-and-structured') },
  ];
}

function write(lines: unknown[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-transcript-')), 'session.jsonl');
  writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

const validate = (file: string, protocol = 'mcp@2025-11-25') =>
  run(['validate', file, '--protocol', protocol, '--format', 'jsonrpc']);

describe('37 > a JSON-RPC transcript', () => {
  it('a conversation as the specification writes it is valid, both directions', async () => {
    const got = await validate(write(transcript()));
    expect(got.out).toMatch(/^0 of 8 items invalid in 1 file \(mcp@2025-11-25\)$/m);
    expect(got.code).toBe(0);
  });

  it('each fault is named by line, pointer and type: params, a result, an unknown method, a stray answer, the envelope', async () => {
    const lines = transcript();
    lines[3] = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { arguments: {} } };
    lines[7] = { jsonrpc: '2.0', id: 1, result: { content: 'sunny' } };
    lines.push({ jsonrpc: '2.0', id: 5, method: 'tools/explode' });
    lines.push({ jsonrpc: '2.0', id: 99, result: {} });
    lines.push({ jsonrpc: '1.0', method: 'notifications/initialized' });
    lines.push('{"jsonrpc": "2.0", ');
    const got = await validate(write(lines));
    expect(got.code).toBe(1);
    const out = got.out.split('\n');
    const at = (line: number) => out.filter((l) => l.includes(`session.jsonl:${line}:`)).join('\n');
    expect(at(4)).toMatch(/\/params\/name: is required but missing \(CallToolRequest\)/);
    expect(at(8)).toMatch(/\/result\/content: must be array \((CallToolResult|rpc_tools_call_result)\)/);
    expect(at(9)).toMatch(/\/method: mcp@2025-11-25 has no method "tools\/explode"/);
    expect(at(10)).toMatch(/\/id: answers no request sent before it \(id 99\)/);
    expect(at(11)).toMatch(/\/jsonrpc: must be "2\.0"/);
    expect(at(12)).toMatch(/not (valid )?JSON|Unexpected|JSON/);
    // The sampling exchange in between, answered with the right type, has nothing to say.
    expect(at(5) + at(6)).toBe('');
  });

  it('auto > a .jsonl that opens with a request is read as a transcript: a wrong result fails without --format', async () => {
    const lines = transcript();
    lines[7] = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'txt', text: 'sunny' }] } };
    const file = write(lines);
    const auto = await run(['validate', file, '--protocol', 'mcp@2025-11-25']);
    expect(auto.code, auto.out).toBe(1);
    expect(auto.out).toMatch(/session\.jsonl:8: .*\/result\/content\/0/);
    // Asked for as plain items, the same lines are read one by one, as before.
    const items = await run(['validate', file, '--protocol', 'mcp@2025-11-25', '--format', 'ndjson']);
    expect(items.out).not.toMatch(/session\.jsonl:8: .*\/result\/content\/0/);
    // A capture that opens with a response (one answer's envelopes) stays a stream of items.
    const answers = write([
      { jsonrpc: '2.0', id: 1, result: example('CallToolResult', 'forecast-text-and-structured') },
    ]);
    const stream = await run(['validate', answers, '--protocol', 'mcp@2025-11-25']);
    expect(stream.out).not.toMatch(/answers no request/);
  });

  it('auto > a protocol without JSON-RPC methods: the usage error says why the file was read as a transcript', async () => {
    const got = await run(['validate', write(transcript()), '--protocol', 'agent-protocol']);
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/first line is a JSON-RPC request; pass --format ndjson/);
  });

  it('a batch in a revision without batching (x-batches: false) is named; its members are still checked', async () => {
    const got = await validate(
      write([
        [
          { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
          { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'forecast', arguments: {} } },
        ],
      ]),
    );
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/:1: .*a batch of 2: mcp@2025-11-25 takes no JSON-RPC batches/);
    expect(got.out).toMatch(/^1 of 2 items invalid/m);
    // A2A's JSON-RPC takes batches (JSON-RPC 2.0's): no such issue.
    const a2a = await validate(
      write([[{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 't1' } }]]),
      'a2a@1.0',
    );
    expect(a2a.out).not.toMatch(/takes no JSON-RPC batches/);
  });

  it('a result of several types (tools/call) is held to the one it has the shape of, named; a bad content tag is one line', async () => {
    const lines = transcript();
    lines[7] = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'txt', text: 'sunny' }] } };
    const got = await validate(write(lines));
    expect(got.code).toBe(1);
    const at8 = got.out.split('\n').filter((l) => l.includes('session.jsonl:8:'));
    expect(at8).toEqual([
      expect.stringMatching(
        /\/result\/content\/0\/type: "txt" names none of the union's variants \(CallToolResult\)/,
      ),
    ]);
    expect(got.out).not.toMatch(/rpc_tools_call_result|CreateTaskResult/);
  });

  it('a batch line is checked message by message', async () => {
    const got = await validate(
      write([
        [
          { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
          { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 7 } },
        ],
      ]),
    );
    expect(got.code).toBe(1);
    expect(got.out).toMatch(
      /:1: (event 1: )?\/1\/params\/name: must be string \(CallToolRequestParams|CallToolRequest\)/,
    );
    expect(got.out).not.toMatch(/\/0\//);
  });

  it("a protocol whose types are the params (A2A's OpenRPC document): params and results by the method", async () => {
    const got = await validate(
      write([
        { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 7 } },
        { jsonrpc: '2.0', id: 1, result: { id: 't' } },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
        },
      ]),
      'a2a@1.0',
    );
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/:1: (event 1: )?\/params\/id: must be string/);
    expect(got.out).toMatch(/:2: (event 2: )?\/result\/status: is required but missing \(Task\)/);
    expect(got.out).not.toMatch(/:3: /);
  });

  it('a protocol without JSON-RPC methods is a usage error (exit 2)', async () => {
    const got = await validate(write(transcript()), 'fixie');
    expect(got.code).toBe(2);
    expect(got.err).toMatch(/fixie@1\.0 has no JSON-RPC methods to check a transcript against/);
  });
});

describe("37 > an MCP answer stream or capture, by the revision's stream rules", () => {
  const progress = (value: number) => ({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 't', progress: value, total: 100 },
  });
  const answer = {
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
  };
  const sse = (events: unknown[]) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agentproto-mcp-sse-')), 'answer.sse');
    writeFileSync(file, events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
    return file;
  };
  const check = (file: string, format: string) =>
    run(['validate', file, '--protocol', 'mcp@2026-07-28', '--format', format]);

  it('an answer stream: progress rising, then the response, is valid with no --type', async () => {
    const got = await check(sse([progress(0), progress(50), progress(100), answer]), 'sse');
    expect(got.err).toBe('');
    expect(got.code).toBe(0);
  });

  it('progress that falls, and a result without resultType, are named by event, pointer and rule', async () => {
    const got = await check(sse([progress(50), progress(20), { ...answer, result: { content: [] } }]), 'sse');
    expect(got.code).toBe(1);
    expect(got.out).toMatch(
      /event 2: \/params\/progress: must be greater than 50, the token's last progress \(got 20\)/,
    );
    expect(got.out).toMatch(/progress-increases/);
    expect(got.out).toMatch(/event 3: \/result\/resultType: is required but missing/);
  });

  it('a stdio capture: progress for a request answered already', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'slow',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          progressToken: 't',
        },
      },
    };
    const got = await check(write([call, progress(10), answer, progress(20)]), 'ndjson');
    expect(got.code).toBe(1);
    expect(got.out).toMatch(/:4: .*\/params\/progressToken: "t" belongs to a request answered already/);
  });
});
