// A client under test for `agentproto conformance --client`: our generated Agent Protocol v1 client, doing what each
// client scenario asks: create a task, then execute steps until one is the last (at most ten).
// Usage: tsx test/support/clients/agent-protocol-client.ts <agent-url>.
import { createAgentProtocolClient } from '@agentproto/agent-protocol';

const url = process.argv.at(-1) ?? '';
const client = createAgentProtocolClient({ baseUrl: url, timeoutMs: 10_000 });
const created = await client.createAgentTask({ body: { input: 'hello' } });
if (!created.data) {
  console.error(JSON.stringify(created.error));
  process.exit(1);
}
const task_id = created.data.task_id;
for (let i = 0; i < 10; i++) {
  const step = await client.executeAgentTaskStep({ params: { path: { task_id } }, body: { input: 'go on' } });
  if (!step.data) {
    console.error(JSON.stringify(step.error));
    process.exit(1);
  }
  console.log(String(step.data.output ?? '').slice(0, 200));
  if (step.data.is_last) break;
}
