// `pnpm demo`: regenerates the protocol packages, starts the reference Agent Protocol v1 agent on 127.0.0.1, drives
// it through a whole task with the generated typed client, then streams from the reference AgentScope 1.1 agent (an
// echo and a tool round trip), calls the Fixie and draft-2025 agents, takes the A2A agent through input-required
// over JSON-RPC and HTTP+JSON, and calls the MCP reference server in both revisions, printing each exchange.
import { createA2aClient, createA2aRpcClient, type Task } from '@agentproto/a2a';
import { startReferenceAgent as startA2aAgent } from '@agentproto/a2a/reference-agent/serve';
import { createAgentProtocolClient } from '@agentproto/agent-protocol';
import { startReferenceAgent } from '@agentproto/agent-protocol/reference-agent/serve';
import { createAgentProtocol2025Client } from '@agentproto/agent-protocol-2025';
import { startReferenceServer as startDraft2025 } from '@agentproto/agent-protocol-2025/reference-agent/serve';
import { createClient as createAgentScopeClient } from '@agentproto/agentscope/1.1';
import { getWeather } from '@agentproto/agentscope/reference-agent';
import { startReferenceAgent as startAgentScopeAgent } from '@agentproto/agentscope/reference-agent/serve';
import { runCli } from '@agentproto/cli';
import { createClient as createFixieClient } from '@agentproto/fixie';
import { startReferenceAgent as startFixieAgent } from '@agentproto/fixie/reference-agent/serve';
import { connectMcp } from '@agentproto/mcp';
import { referenceAgentFor as mcpReference } from '@agentproto/mcp/reference-agent/serve';

const say = (line: string) => console.log(line);

/** Whether a function_call's data is a call as the agent writes it: an id, a function name and its arguments. */
function isFunctionCall(value: unknown): value is { call_id: string; name: string; arguments: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'call_id' in value &&
    typeof value.call_id === 'string' &&
    'name' in value &&
    typeof value.name === 'string' &&
    'arguments' in value &&
    typeof value.arguments === 'string'
  );
}

say('1. generate: schemas/ → packages/*/src/generated/');
const generated = await runCli(['generate']);
if (generated !== 0) process.exit(generated);

const { server, url } = await startReferenceAgent(0);
say(`\n2. reference agent listening on ${url}`);
try {
  const client = createAgentProtocolClient({ baseUrl: url });
  const show = (what: string, value: unknown) => say(`   ${what}: ${JSON.stringify(value)}`);

  say('\n3. a whole task through the typed client');
  const created = await client.createAgentTask({ body: { input: 'Write the word Washington to a file' } });
  if (!created.data) throw new Error(`createAgentTask failed: ${JSON.stringify(created.error)}`);
  const taskId = created.data.task_id;
  show('POST /ap/v1/agent/tasks → task', created.data);

  for (let i = 1; i <= 10; i++) {
    const step = await client.executeAgentTaskStep({
      params: { path: { task_id: taskId } },
      body: { input: `go on (${i})` },
    });
    if (!step.data) throw new Error(`executeAgentTaskStep failed: ${JSON.stringify(step.error)}`);
    show(`POST …/steps → step ${i}`, {
      name: step.data.name,
      output: step.data.output,
      is_last: step.data.is_last,
    });
    if (step.data.is_last) break;
  }

  const upload = await client.uploadAgentTaskArtifacts({
    params: { path: { task_id: taskId } },
    body: { file: new File(['notes for the agent'], 'notes.txt'), relative_path: 'inputs' },
  });
  show('POST …/artifacts (multipart) → artifact', upload.data);

  const artifacts = await client.listAgentTaskArtifacts({
    params: { path: { task_id: taskId }, query: { page_size: 1, current_page: 2 } },
  });
  show('GET …/artifacts?page_size=1&current_page=2 → page', artifacts.data);

  const first = (await client.listAgentTaskArtifacts({ params: { path: { task_id: taskId } } })).data
    ?.artifacts[0];
  if (first) {
    const download = await client.downloadAgentTaskArtifact({
      params: { path: { task_id: taskId, artifact_id: first.artifact_id } },
    });
    show(`GET …/artifacts/${first.artifact_id} → bytes`, await download.data?.text());
  }

  const steps = await client.listAgentTaskSteps({ params: { path: { task_id: taskId } } });
  show('GET …/steps → pagination', steps.data?.pagination);

  const missing = await client.getAgentTask({ params: { path: { task_id: 'no-such-task' } } });
  show(`GET /ap/v1/agent/tasks/no-such-task → ${missing.response.status}`, missing.error);

  const bad = await fetch(`${url}/ap/v1/agent/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: 42 }),
  });
  show(`POST /ap/v1/agent/tasks {"input":42} → ${bad.status}`, await bad.json());
  say('\nThe reference agent answered every operation of Agent Protocol v1.');
} finally {
  server.close();
}

const scope = await startAgentScopeAgent('1.1', 0);
say(
  `\n4. AgentScope 1.1 reference agent listening on ${scope.url}; POST /process streams server-sent events`,
);
try {
  const client = createAgentScopeClient({ baseUrl: scope.url, idleTimeoutMs: 5_000 });
  const ask = (text: string) => ({
    role: 'user' as const,
    type: 'message' as const,
    content: [{ type: 'text' as const, text }],
  });
  const run = client.process({ input: [ask('Hello, agent')], session_id: 'demo' });
  for await (const e of run) {
    const what =
      e.object === 'content'
        ? `${e.type}${e.delta ? ' delta' : ''} ${JSON.stringify('text' in e ? e.text : undefined)}`
        : '';
    say(`   event ${String(e.sequence_number).padStart(2)}: ${e.object} ${e.status ?? ''} ${what}`.trimEnd());
  }
  const echoed = await run.response;
  say(`   final response: ${echoed.status}, ${echoed.output?.length} message(s)`);

  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather in a city.',
        parameters: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ];
  const question = ask('What is the weather in Lisbon?');
  const first = await client.process({ input: [question], tools }).response;
  const call = first.output?.find((m) => m.type === 'function_call');
  const part = call?.content?.[0];
  const data: unknown = part && 'data' in part ? part.data : undefined;
  const payload = isFunctionCall(data) ? data : undefined;
  say(`   the agent calls ${payload?.name}(${payload?.arguments}); the client runs it`);
  const output = {
    call_id: payload?.call_id ?? '',
    output: getWeather(JSON.parse(payload?.arguments ?? '{}')),
  };
  const answer = await client.process({
    input: [
      question,
      { type: 'function_call', role: 'assistant', content: [{ type: 'data', data: { ...payload } }] },
      { type: 'function_call_output', role: 'tool', content: [{ type: 'data', data: output }] },
    ],
  }).response;
  const said = answer.output?.[0]?.content?.[0];
  say(`   and answers: ${JSON.stringify(said && 'text' in said ? said.text : undefined)}`);

  // sound: `never` is the point: a body the types forbid (`input` must be a list), sent to show the agent refuse it.
  const refused = await client.process({ input: 'hello' } as never).response.catch((e: Error) => e.message);
  say(`   POST /process {"input":"hello"} → ${refused}`);
} finally {
  scope.server.close();
}

const codeShot = await startFixieAgent('code-shot', 0);
const standalone = await startFixieAgent('standalone', 0);
say(
  `\n5. Fixie reference agents listening on ${codeShot.url} (code-shot) and ${standalone.url} (standalone)`,
);
try {
  const fixie = createFixieClient({ baseUrl: codeShot.url });
  const handshake = await fixie.metadata('yaml');
  say(`   GET / (Accept: application/yaml) → ${JSON.stringify(handshake).slice(0, 110)}…`);
  say(
    `   POST /genrand {"message":{"text":"0, 19"}} → ${JSON.stringify(await fixie.call('genrand', '0, 19'))}`,
  );
  const missing = await fixie.call('nope', 'x').catch((e: Error) => e.message);
  say(`   POST /nope → ${missing}`);
  const lines: string[] = [];
  for await (const r of createFixieClient({ baseUrl: standalone.url }).query('Count down from 3'))
    lines.push(r.message.text);
  say(`   POST / (standalone, NDJSON) → ${lines.join(' | ')}`);
} finally {
  codeShot.server.close();
  standalone.server.close();
}

const draft = await startDraft2025(0);
say(`\n6. Agent Protocol (draft 2025) reference agents listening on ${draft.url}`);
try {
  const client = createAgentProtocol2025Client({ baseUrl: draft.url });
  const agent = { path: { agent: 'assistant' } };
  const started = await client.processRequest({
    params: { ...agent, query: { wait: true } },
    body: { type: 'ChatRequest', input: 'Please buy me a new set of cutting boards' },
  });
  const requestId = started.data?.request_id ?? '';
  say(
    `   POST /assistant/process?wait=true (ChatRequest) → ${started.data?.type} ${requestId} in run ${started.data?.run_id}`,
  );
  const events = await client.getEvents({
    params: { ...agent, query: { request_id: requestId, stream: true } },
  });
  for await (const e of events.items ?? []) {
    say(
      `   event ${e.id}: ${e.type}${e.type === 'WaitForInput' ? ` ${JSON.stringify(e.request_keys)}` : ''}`,
    );
    if (e.type === 'WaitForInput') break;
  }
  await client.processRequest({
    params: { ...agent, query: { wait: false } },
    body: { type: 'ResumeWithInput', request_id: requestId, request_keys: { material: 'wooden' } },
  });
  say('   POST /assistant/process (ResumeWithInput {"material":"wooden"}) → 202');
  const rest = await client.getEvents({
    params: { ...agent, query: { request_id: requestId, stream: true, since: 2 } },
  });
  for await (const e of rest.items ?? [])
    say(`   event ${e.id}: ${e.type}${e.type === 'RequestCompleted' ? ` ${JSON.stringify(e.result)}` : ''}`);
} finally {
  draft.server.close();
}

const a2a = await startA2aAgent(0, { chunkDelayMs: 0 });
say(`\n7. A2A reference agent listening on ${a2a.url} (JSON-RPC at /jsonrpc, HTTP+JSON at /)`);
try {
  // Both clients send `A2A-Version: 1.0`, the version of the entry point they come from.
  const rpc = createA2aRpcClient({ url: `${a2a.url}/jsonrpc` });
  const rest = createA2aClient({ baseUrl: a2a.url });
  const card = await rest.getAgentCard();
  say(
    `   GET /.well-known/agent-card.json → ${card.data?.name}, skills: ${card.data?.skills.map((s) => s.id).join(', ')}`,
  );
  const message = (text: string, taskId?: string) => ({
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER' as const,
      parts: [{ text }],
      ...(taskId ? { taskId } : {}),
    },
  });
  const asked = await rpc.SendMessage(message('Plan a trip'));
  // sound: the answer is exactly one of a task or a message (SendMessageResponse's oneOf), so a `task` member is a
  // Task; the generated union's open members (`[k: string]: unknown`) cannot say that to the compiler.
  const task = (asked as { task?: Task }).task;
  say(
    `   JSON-RPC SendMessage "Plan a trip" → task ${task?.status.state}: ${JSON.stringify(task?.status.message?.parts)}`,
  );
  for await (const event of rpc.SendStreamingMessage(message('Lisbon', task?.id))) {
    // sound: each event is exactly one of a task, a message, a status update or an artifact update (StreamResponse's
    // oneOf), so each member read here has its type; the generated union's open members cannot say that.
    const e = event as {
      task?: { status: { state: string } };
      statusUpdate?: { status: { state: string } };
      artifactUpdate?: { artifact: { parts: unknown[] } };
    };
    say(
      `   event: ${e.task ? `task ${e.task.status.state}` : e.statusUpdate ? `status ${e.statusUpdate.status.state}` : `artifact ${JSON.stringify(e.artifactUpdate?.artifact.parts)}`}`,
    );
  }
  const listed = await rest.listTasks({ params: { query: { pageSize: 5 } } });
  say(
    `   GET /tasks?pageSize=5 → ${listed.data?.totalSize} task(s), newest ${listed.data?.tasks[0]?.status.state}`,
  );
  const gone = await rest.getTask({ params: { path: { id: 'no-such-task' } } });
  say(`   GET /tasks/no-such-task → ${gone.response.status} ${JSON.stringify(gone.error)}`);
} finally {
  a2a.server.close();
}

const mcpServer = await mcpReference('2025-11-25').start({ port: 0 });
say(`\n8. MCP reference server listening on ${mcpServer.url}/mcp (both revisions at one endpoint)`);
try {
  const progress: string[] = [];
  const old = await connectMcp({
    url: `${mcpServer.url}/mcp`,
    version: '2025-11-25',
    onMessage: (m) =>
      progress.push(
        JSON.stringify(typeof m === 'object' && m !== null && 'params' in m ? m.params : undefined),
      ),
  });
  say(`   2025-11-25 initialize → session ${old.session?.slice(0, 8)}…`);
  const { 'tools/list': listTools, 'tools/call': callTool } = old.client;
  say(`   tools/list → ${(await listTools({})).tools.length} tools`);
  const sum = await callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  say(`   tools/call add {a:2,b:3} → ${JSON.stringify(sum.structuredContent)}`);
  await callTool({ name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'demo' } });
  say(`   tools/call test_tool_with_progress → an event stream: ${progress.join(', ')}, then the result`);
  await old.close();
  const stateless = await connectMcp({
    url: `${mcpServer.url}/mcp`,
    version: '2026-07-28',
    capabilities: { elicitation: {} },
  });
  say(`   2026-07-28 server/discover → ${JSON.stringify(stateless.server.supportedVersions)}`);
  const asked = await stateless.client['tools/call']({
    name: 'test_input_required_result_elicitation',
    arguments: {},
  });
  say(
    `   tools/call asking the user's name → resultType ${String('resultType' in asked ? asked.resultType : undefined)}`,
  );
  say('\nDone: every reference agent answered as its protocol says.');
} finally {
  await mcpServer.close();
}
