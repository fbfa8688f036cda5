/** A file of a new agent project: its path inside the project and its text. */
export interface ProjectFile {
  path: string;
  content: string;
}

/** What a protocol's template needs to know. */
export interface TemplateInput {
  /** The project's (and agent's) name, as npm accepts it. */
  name: string;
  /** The protocol id and version, as `--protocol` takes them (`agentscope@1.1`). */
  protocol: string;
  version: string;
  /** How the project names each @agentproto package it depends on (a `file:vendor/…` tarball or a range). */
  ours: Readonly<Record<string, string>>;
  /** Ranges of the third-party packages it depends on, taken from our packages' own manifests. */
  ranges: Readonly<Record<string, string>>;
  /** Whether our packages come from vendor/ (then npm must use them for transitive dependencies too). */
  vendored: boolean;
}

/** A new project's compiler options: strict, as our own sources are compiled. */
export const PROJECT_COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The port `npm start` listens on by default: not one the reference agents use (8000, 8086, 8090, 8181). */
export const PROJECT_PORT = 3000;

interface ProtocolTemplate {
  /** The protocol package and the module the agent imports. */
  pkg: string;
  module: string;
  title: string;
  /** `src/agent.ts`: the typed handlers, each returning a valid answer, with TODOs. */
  agent: (t: TemplateInput) => string;
  /** What the README says the agent does and where to extend it. */
  extend: string;
}

const AP_V1 = (module: string, extension: boolean): ProtocolTemplate => ({
  pkg: '@agentproto/agent-protocol',
  module,
  title: extension ? 'Agent Protocol v1 with the awaiting_input extension' : 'Agent Protocol v1',
  agent:
    () => `// The agent's handlers, one per operation of ${extension ? 'Agent Protocol v1 (awaiting_input extension)' : 'Agent Protocol v1'}. Each already returns a
// valid answer; replace the TODOs with your agent's logic. The compiler checks every answer against the protocol.
import { MemoryStore, paginate } from '@agentproto/agent-protocol/reference-agent';
import { type AgentProtocolHandlers, createAgentProtocolApp, type Step } from '${module}';

const store = new MemoryStore();

const notFound = (what: string, id: string) => ({ status: 404 as const, body: { message: \`no \${what} with id "\${id}"\` } });

export const handlers: AgentProtocolHandlers = {
  createAgentTask({ body }) {
    // TODO: set your agent up for the task (body.input is what the user asked for).
    const task = { task_id: store.newId('task'), input: body?.input ?? null, artifacts: [] };
    store.add(task);
    return { status: 200, body: task };
  },
  listAgentTasks({ query }) {
    const page = paginate(store.list(), query.current_page, query.page_size);
    return { status: 200, body: { tasks: page.items, pagination: page.pagination } };
  },
  getAgentTask({ params }) {
    const stored = store.get(params.task_id);
    return stored ? { status: 200, body: stored.task } : notFound('task', params.task_id);
  },
  executeAgentTaskStep({ params, body }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    // TODO: do one step of the task. This one answers at once and finishes the task.
    const step: Step = {
      task_id: params.task_id,
      step_id: store.newId('step'),
      name: 'answer',
      status: 'completed',
      input: body?.input ?? null,
      output: \`done: \${stored.task.input ?? ''}\`,
      artifacts: [],
      is_last: true,
    };
    stored.steps.push(step as never);
    return { status: 200, body: step };
  },
  listAgentTaskSteps({ params, query }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    const page = paginate(stored.steps, query.current_page, query.page_size);
    return { status: 200, body: { steps: page.items, pagination: page.pagination } };
  },
  getAgentTaskStep({ params }) {
    const step = store.get(params.task_id)?.steps.find((s) => s.step_id === params.step_id);
    return step ? { status: 200, body: step } : notFound('step', params.step_id);
  },
  async uploadAgentTaskArtifacts({ params, body }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    // TODO: decide what your agent does with uploaded files.
    const artifact = {
      artifact_id: store.newId('artifact'),
      agent_created: false,
      file_name: body.file instanceof File && body.file.name !== '' ? body.file.name : 'upload.bin',
      relative_path: body.relative_path ?? null,
    };
    stored.artifacts.push({ artifact, bytes: new Uint8Array(await body.file.arrayBuffer()) });
    stored.task.artifacts.push(artifact);
    return { status: 200, body: artifact };
  },
  listAgentTaskArtifacts({ params, query }) {
    const stored = store.get(params.task_id);
    if (!stored) return notFound('task', params.task_id);
    const page = paginate(stored.artifacts.map((a) => a.artifact), query.current_page, query.page_size);
    return { status: 200, body: { artifacts: page.items, pagination: page.pagination } };
  },
  downloadAgentTaskArtifact({ params }) {
    const found = store.get(params.task_id)?.artifacts.find((a) => a.artifact.artifact_id === params.artifact_id);
    return found ? { status: 200, body: found.bytes } : notFound('artifact', params.artifact_id);
  },
};

/** The agent as a Hono app. */
export const app = createAgentProtocolApp(handlers);
`,
  extend:
    'Each handler in `src/agent.ts` answers one operation; `executeAgentTaskStep` is where the agent works. Tasks, steps and artifacts live in memory (`MemoryStore`); swap in your own storage as the agent grows.',
});

const TEMPLATES: Readonly<Record<string, ProtocolTemplate>> = {
  'agent-protocol@v1': AP_V1('@agentproto/agent-protocol/v1', false),
  'agent-protocol@v1-awaiting-input': AP_V1('@agentproto/agent-protocol/v1-awaiting-input', true),
  'agentscope@0.1': agentscope('0.1'),
  'agentscope@1.1': agentscope('1.1'),
  'fixie@1.0': {
    pkg: '@agentproto/fixie',
    module: '@agentproto/fixie/1.0',
    title: 'Fixie Agent Protocol 1.0',
    agent: (
      t,
    ) => `// A code-shot Fixie agent: a prompt, few-shots that call its functions, and the functions. The factory refuses
// to start when a few-shot breaks the grammar or calls a function that is not here.
import { createCodeShotAgent } from '@agentproto/fixie/1.0';

export const app = createCodeShotAgent({
  basePrompt: 'I am ${t.name}. I answer questions by calling my functions.',
  // TODO: write few-shots that show the model when to call your functions.
  fewShots: ['Q: Say hello to Ada.\\nAsk Func[greet]: Ada\\nFunc[greet] says: Hello, Ada!\\nA: Hello, Ada!'],
  functions: {
    // TODO: your functions. Each gets the query the model wrote and returns a text, a message or a response.
    greet: ({ message }) => \`Hello, \${message.text}!\`,
  },
});
`,
    extend:
      "Add functions to `functions` in `src/agent.ts` and a few-shot that calls each one. Pass `auth: fixieTokenVerifier({ jwksUrl })` to check the platform's tokens.",
  },
  'agent-protocol-2025@draft-2025-02': {
    pkg: '@agentproto/agent-protocol-2025',
    module: '@agentproto/agent-protocol-2025',
    title: 'Agent Protocol (draft 2025)',
    agent: (
      t,
    ) => `// An agent of the 2025 draft. The runtime keeps runs and their memory, numbers the events, and handles cancel and
// resume; you write what the agent does with a request.
import { createAgentServer } from '@agentproto/agent-protocol-2025';

export const app = createAgentServer({
  agents: [
    {
      name: '${t.name.replace(/[^A-Za-z0-9_-]/g, '-')}',
      purpose: 'TODO: say what this agent is for.',
      async chat(input, context) {
        // TODO: your agent's logic. context.run.memory holds earlier turns; context.text() streams output;
        // context.waitForInput({ key: 'question' }) asks the caller and waits for the answer.
        const answer = \`You said: \${input}\`;
        await context.text(answer);
        return answer;
      },
    },
  ],
});
`,
    extend:
      'Write the agent in `chat` (and add typed operations with `defineOperation` and TypeBox). The runtime publishes RequestStarted and RequestCompleted, handles CancelRequest and ResumeWithInput, and keeps runs in memory (`MemoryRunStore`; pass your own `store`).',
  },
};

function agentscope(version: '0.1' | '1.1'): ProtocolTemplate {
  return {
    pkg: '@agentproto/agentscope',
    module: `@agentproto/agentscope/${version}`,
    title: `AgentScope Agent API ${version}`,
    agent:
      () => `// An AgentScope ${version} agent: yield output, and the runtime streams the protocol's events (response, messages,
// text deltas, completion) as server-sent events. \`signal\` aborts when the client disconnects.
import { createAgent } from '@agentproto/agentscope/${version}';

export const app = createAgent({
  async *run(request, { signal }) {
    // TODO: your agent's logic. request.input holds the conversation; yield text deltas, data, function calls and
    // their outputs, or an error.
    const last = request.input.at(-1)?.content?.find((part) => part.type === 'text');
    const text = last && 'text' in last ? String(last.text ?? '') : '';
    for (const word of \`You said: \${text}\`.split(/(?<= )/)) {
      if (signal.aborted) return;
      yield { type: 'text', delta: word };
    }
  },
});
`,
    extend:
      'Write the agent in `run` in `src/agent.ts`: yield `{ type: "text", delta }`, `{ type: "function_call", name, arguments }`, `{ type: "function_call_output", call_id, output }`, `{ type: "data", data }` or `{ type: "error", code, message }`.',
  };
}

/** The protocols `agentproto new` can write a project for, as `<id>@<version>`. */
export function templateKeys(): string[] {
  return Object.keys(TEMPLATES);
}

/** The latest version of each protocol, for `--protocol <id>` without a version. */
const LATEST: Readonly<Record<string, string>> = {
  'agent-protocol': 'v1',
  agentscope: '1.1',
  fixie: '1.0',
  'agent-protocol-2025': 'draft-2025-02',
};

/** Resolves `<id>[@<version>]` to a template key, or undefined. */
export function resolveTemplate(spec: string): string | undefined {
  const [id = '', version] = spec.split('@');
  const key = `${id}@${version ?? LATEST[id] ?? ''}`;
  return key in TEMPLATES ? key : undefined;
}

/** The packages a project of this template depends on: ours, then third-party ones. */
export function templatePackages(key: string): { ours: string[]; thirdParty: string[]; pkg: string } {
  const tpl = TEMPLATES[key];
  if (!tpl) throw new Error(`no template for ${key}`);
  const thirdParty = ['@hono/node-server', 'hono'];
  if (tpl.pkg === '@agentproto/agent-protocol-2025') thirdParty.push('@sinclair/typebox');
  return { ours: [tpl.pkg, '@agentproto/runtime', '@agentproto/conformance'], thirdParty, pkg: tpl.pkg };
}

/** Every file of a new agent project. */
export function projectFiles(key: string, t: TemplateInput): ProjectFile[] {
  const tpl = TEMPLATES[key];
  if (!tpl) throw new Error(`no template for ${key}`);
  const { ours, thirdParty } = templatePackages(key);
  const spec = (name: string): string => {
    const found = t.ours[name] ?? t.ranges[name];
    if (!found) throw new Error(`no version for ${name}`);
    return found;
  };
  const sorted = (names: string[]) => Object.fromEntries(names.sort().map((n) => [n, spec(n)]));
  const port = PROJECT_PORT;
  const pkg = {
    name: t.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: `An agent that speaks ${tpl.title}.`,
    engines: { node: '>=20' },
    scripts: {
      // node runs the server itself (tsx only as its loader), in place of the script's shell (exec): `kill` of npm's
      // process id reaches node and stops the server, instead of leaving it holding the port.
      start: 'exec node --import tsx src/server.ts',
      test: 'node --import tsx --test test/*.test.ts',
      typecheck: 'tsc',
    },
    dependencies: sorted([...ours.filter((n) => n !== '@agentproto/conformance'), ...thirdParty, 'tsx']),
    devDependencies: sorted(['@agentproto/conformance', '@types/node', 'typescript']),
    // npm installs a vendored tarball for a transitive dependency only when an override names the same tarball.
    ...(t.vendored ? { overrides: Object.fromEntries(ours.sort().map((n) => [n, spec(n)])) } : {}),
  };
  return [
    { path: 'package.json', content: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: 'src/agent.ts', content: tpl.agent(t) },
    {
      path: 'src/server.ts',
      content: `// Serves the agent on 127.0.0.1 (PORT, default ${port}). Ctrl-C stops it.
import { serveLocal } from '@agentproto/runtime';
import { app } from './agent.js';

const port = Number(process.env.PORT ?? ${port});
const { url } = await serveLocal(app.fetch, port);
console.log(\`${t.name} (${tpl.title}) listening on \${url}\`);
`,
    },
    {
      path: 'test/conformance.test.ts',
      content: `// Runs the agentproto conformance kit against the agent, in memory: every MUST and SHOULD check of
// ${t.protocol}@${t.version} must pass. Keep it passing as you write the agent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render, runConformance } from '@agentproto/conformance';
import { app } from '../src/agent.js';

test('the agent conforms to ${t.protocol}@${t.version}', async () => {
  const report = await runConformance({ protocol: '${t.protocol}@${t.version}', target: app });
  const failed = report.checks.filter((c) => c.status === 'fail' && c.level !== 'MAY');
  assert.deepEqual(failed, [], render(report, 'text'));
});
`,
    },
    {
      path: 'tsconfig.json',
      content: `${JSON.stringify(
        {
          compilerOptions: PROJECT_COMPILER_OPTIONS,
          include: ['src', 'test'],
        },
        null,
        2,
      )}\n`,
    },
    { path: '.gitignore', content: 'node_modules/\n' },
    {
      path: 'README.md',
      content: `# ${t.name}

An agent that speaks **${tpl.title}** (\`${t.protocol}@${t.version}\`), made with \`agentproto new\`.

\`\`\`sh
npm install
npm run typecheck   # the TypeScript compiler, strict: every handler's answer is checked against the protocol
npm test            # the agentproto conformance kit against the agent, in memory
npm start           # serves it on http://127.0.0.1:${port} (PORT=… for another port)
\`\`\`

${
  t.vendored
    ? `The @agentproto packages come from the tarballs in \`vendor/\`, which \`agentproto new\` packed from the CLI
that made this project: install needs the npm registry only for third-party packages. Keep \`vendor/\` with the
project (commit it). Once the packages are published, \`agentproto new --registry\` writes version ranges instead.`
    : 'The @agentproto packages come from the npm registry, as version ranges.'
}

## Extend it

${tpl.extend}

Requests are validated before your code runs, and in development every answer is checked against the protocol
(set \`NODE_ENV=production\` to skip that check). \`npm test\` runs the conformance kit: keep it green.

To check the running agent from another terminal, with the agentproto CLI that made this project: \`agentproto conformance http://127.0.0.1:${port} --protocol ${t.protocol}@${t.version}\`.
`,
    },
  ];
}
