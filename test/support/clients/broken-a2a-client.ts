// A deliberately broken A2A client, for `agentproto conformance --client` to fail: it reads the card, then sends a
// 0.3-shaped `message/send` (parts with `kind`, role `user`) to the agent's 1.0 JSON-RPC endpoint, without the
// A2A-Version header 1.0 requires (§3.6.1).
// Usage: node --import tsx test/support/clients/broken-a2a-client.ts <agent-url>.
const url = process.argv.at(-1) ?? '';
await (await fetch(`${url}/.well-known/agent-card.json`)).text();
const body = {
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: {
    message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
  },
};
const answer = await fetch(`${url}/jsonrpc`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
console.log(await answer.text());
