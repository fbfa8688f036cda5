// Run by stores.ts in a process of its own: keeps draft-2025 runs (20 events each; 1,000 unless the second argument
// says) in the store its first argument names, then prints the process's resident memory in bytes, after a full
// garbage collection.
import { createAgentServer } from '@agentproto/agent-protocol-2025';
import { openStore } from '@agentproto/runtime';

const store = await openStore(process.argv[2]);
const app = createAgentServer({
  store,
  instance: 'bench',
  agents: [
    {
      name: 'writer',
      purpose: 'Publishes 20 events of about 200 bytes.',
      async chat(input, context) {
        for (let i = 0; i < 18; i++) await context.text(`${input} ${'x'.repeat(120)} ${i}`);
        return 'done';
      },
    },
  ],
});
const runs = Number(process.argv[3] ?? 1000);
for (let i = 0; i < runs; i++) {
  const response = await app.request('/writer/process?wait=true', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'ChatRequest', input: `run ${i}` }),
  });
  const answer: unknown = await response.json();
  const request_id =
    typeof answer === 'object' && answer !== null && 'request_id' in answer ? answer.request_id : undefined;
  await (await app.request(`/writer/getevents?request_id=${request_id}&stream=true`)).text();
}
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 100));
console.log(process.memoryUsage().rss);
await store.close();
process.exit(0);
