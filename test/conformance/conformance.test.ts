// The conformance kit against our reference agents (which must pass every MUST and SHOULD check) and against broken
// agents with one fault each (which, together, must make every check of every suite fail at least once).

import { createReferenceAgent as createA2aReference } from '@agentproto/a2a/reference-agent';
import {
  createReferenceAgent as apAgent,
  createCuttingBoardAgent as cuttingBoard,
} from '@agentproto/agent-protocol/reference-agent';
import { createReferenceServer } from '@agentproto/agent-protocol-2025/reference-agent';
import { createReferenceAgent as scopeAgent } from '@agentproto/agentscope/reference-agent';
import {
  fuzzChecks,
  knownProtocols,
  type Report,
  resolveBinding,
  resolveSuite,
  runConformance,
} from '@agentproto/conformance';
import {
  createReferenceStandaloneAgent,
  createReferenceAgent as fixieAgent,
} from '@agentproto/fixie/reference-agent';
import { createReferenceServer as createMcpReference } from '@agentproto/mcp/reference-agent';
import { describe, expect, it } from 'vitest';
import { type App, REFERENCE_AGENTS } from '../support/reference-agents.js';
import { a2aFaults } from './a2a-faults.js';
import {
  acceptAgain,
  broken,
  header,
  json,
  ndjson,
  type Rewrite,
  request,
  sse,
  status,
  text,
} from './faults.js';
import { mcpFaults } from './mcp-faults.js';

const references = REFERENCE_AGENTS;

/**
 * Each reference agent's report, run once whichever test asks first: the flows below are read from the same reports
 * the reference checks judge (each test still runs alone, or in any order).
 */
const referenceReports = new Map<string, Promise<Report>>();
function referenceReport(name: string): Promise<Report> {
  let report = referenceReports.get(name);
  if (!report) {
    const { protocol, app } = references.find(([n]) => n === name)?.[1] ?? {};
    if (!protocol || !app) throw new Error(`no reference agent "${name}"`);
    // A short timeout: a subscription the kit reads is left after a tenth of it without news.
    report = runConformance({ protocol, target: app(), timeoutMs: 3_000, fuzz: { requests: 150, seed: 1 } });
    referenceReports.set(name, report);
  }
  return report;
}

describe('conformance > reference agents', () => {
  it('coverage > every protocol version the registry lists with a suite has a reference agent here', async () => {
    const checked = new Set(
      await Promise.all(
        references.map(async ([, r]) => {
          const { binding } = await resolveSuite(r.protocol);
          return `${binding.protocol}@${binding.version}`;
        }),
      ),
    );
    const listed: string[] = [];
    for (const p of knownProtocols())
      for (const { version } of p.versions)
        if ((await resolveBinding(`${p.protocol}@${version}`)).suite) listed.push(`${p.protocol}@${version}`);
    expect(listed.filter((v) => !checked.has(v))).toEqual([]);
  });

  it.each(references)('%s passes every MUST and SHOULD check, the schema-driven ones too', async (name) => {
    const report = await referenceReport(name);
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    // The schema-driven checks ran, and some of their valid requests were taken (not only refused).
    const fuzz = report.checks.filter((c) => c.id.includes('.fuzz.'));
    expect(fuzz.map((c) => c.status)).toEqual(['pass', 'pass', 'pass']);
    // (a JSON-RPC result counts: an MCP server answers a POST to its one endpoint with a result or an error).
    expect(fuzz[0]?.message).toMatch(/answered 2xx \d+|JSON-RPC result \d+/);
    // A skip is only for a capability the agent does not claim, and says so.
    for (const c of report.checks.filter((x) => x.status === 'skip'))
      expect(c.message).toMatch(/claim|says|no function|no custom/);
    expect(report.summary.messagesValidated).toBeGreaterThan(5);
  });
});

describe('conformance > flows the reference agents claim are driven, not skipped', () => {
  const cases: Array<[string, { agent: string; ids: string[] }]> = [
    [
      'draft 2025: human in the loop and cancel',
      {
        agent: 'agent-protocol-2025',
        ids: ['ap25.hitl', 'ap25.cancel.running', 'ap25.cancel.race', 'ap25.resume.race'],
      },
    ],
    [
      'AP v1 awaiting_input: the cutting board',
      {
        agent: 'agent-protocol v1 (awaiting_input, the cutting board)',
        ids: ['ap.awaiting.ask', 'ap.awaiting.answer-required', 'ap.awaiting.answer'],
      },
    ],
  ];
  it.each(cases)('%s', async (_, { agent, ids }) => {
    const report = await referenceReport(agent);
    expect(report.checks.filter((c) => ids.includes(c.id)).map((c) => [c.id, c.status])).toEqual(
      ids.map((id) => [id, 'pass']),
    );
  });
});

const body = (has: string) => (t: string) => t.includes(has);
/**
 * The schema-driven checks as the broken agents get them: with seed 1, every fault meets a request it breaks on
 * within 50 (at 40, agent-protocol's crash on text that is not ASCII and A2A's JSON-RPC params that break their
 * schema went unseen); 60 leaves room. Each failure found is then shrunk, so a broken agent is sent more than this.
 */
const FUZZ = { fuzz: { requests: 60, seed: 1 } };
/** Answers a refusal (a 4xx other than 404) with 200 and an empty object, as a server without validation does. */
const refusalsAccepted: Rewrite = async (request, forward) => {
  const r = await forward(request);
  if (r.status < 400 || r.status >= 500 || r.status === 404) return r;
  return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
};
/** Writes every error as an HTML page, as a web framework's default error handler does. */
const errorsAsHtml: Rewrite = async (request, forward) => {
  const r = await forward(request);
  if (r.status < 400) return r;
  return new Response('<!DOCTYPE html><h1>Error</h1>', {
    status: r.status,
    headers: { 'content-type': 'text/html' },
  });
};
/** Drops the last event of every event stream, as a server does that closes the connection one write too early. */
const lastEventDropped: Rewrite = async (request, forward) => {
  const r = await forward(request);
  if (!(r.headers.get('content-type') ?? '').startsWith('text/event-stream')) return r;
  const events = (await r.text()).split('\n\n').filter((e) => e.trim() !== '');
  return new Response(
    events
      .slice(0, -1)
      .map((e) => `${e}\n\n`)
      .join(''),
    {
      status: r.status,
      headers: r.headers,
    },
  );
};
const withInput = (r: Request, b: string, add: Record<string, unknown>) =>
  new Request(r.url, {
    method: r.method,
    headers: r.headers,
    body: JSON.stringify({ ...JSON.parse(b), ...add }),
  });

/** One fault per entry: the agent, the protocol, and the check the fault must make fail (with --fuzz when `fuzz`). */
const faults: Array<[string, { protocol: string; agent: () => App; fails: string; fuzz?: true }]> = [
  // Agent Protocol v1
  [
    'ap: task creation fails',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.create',
      agent: () => broken(apAgent(), { method: 'POST', path: /^\/ap\/v1\/agent\/tasks$/ }, status(500)),
    },
  ],
  [
    'ap: a task is not found by its id',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.get',
      agent: () =>
        broken(apAgent(), { method: 'GET', path: /^\/ap\/v1\/agent\/tasks\/task-[^/]+$/ }, status(404)),
    },
  ],
  [
    'ap: the list reports no tasks',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.list',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/tasks\?page_size=100$/ },
          json((b) => ({ ...b, pagination: { ...b.pagination, total_items: 0 } })),
        ),
    },
  ],
  [
    'ap: paging ignores page_size',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.paginate',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /current_page=2/ },
          json((b) => ({ ...b, tasks: [...b.tasks, ...b.tasks, ...b.tasks] })),
        ),
    },
  ],
  [
    'ap: no step is ever last',
    {
      protocol: 'agent-protocol',
      fails: 'ap.step.execute',
      agent: () =>
        broken(
          apAgent(),
          { method: 'POST', path: /\/steps$/ },
          json((b) => ({ ...b, is_last: false })),
        ),
    },
  ],
  [
    'ap: a task read back has lost its additional_input',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.read-back',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /^\/ap\/v1\/agent\/tasks\/task-[^/]+$/ },
          json((b) => ({ ...b, additional_input: {} })),
        ),
    },
  ],
  [
    'ap: the second page of tasks leaves one out',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.pages',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /page_size=3&current_page=2$/ },
          json((b) => ({ ...b, tasks: b.tasks.slice(1) })),
        ),
    },
  ],
  [
    'ap: every page says there are more tasks than it shows',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.pages',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /page_size=3&current_page=1$/ },
          json((b) => ({ ...b, pagination: { ...b.pagination, total_items: b.pagination.total_items + 1 } })),
        ),
    },
  ],
  [
    'ap: page_size=0 is answered as if it were the default',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.page-bounds',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\?page_size=0$/ },
          request((r) => new Request(r.url.replace('?page_size=0', ''), { method: 'GET' })),
        ),
    },
  ],
  [
    'ap: a step read back has lost its input',
    {
      protocol: 'agent-protocol',
      fails: 'ap.step.read-back',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/steps\/step-[^/]+$/ },
          json((b) => ({ ...b, input: null })),
        ),
    },
  ],
  [
    'ap: an unknown step is answered 200',
    {
      protocol: 'agent-protocol',
      fails: 'ap.step.not-found',
      agent: () => broken(apAgent(), { method: 'GET', path: /conformance-no-such-step$/ }, status(200)),
    },
  ],
  [
    'ap: the step list is empty',
    {
      protocol: 'agent-protocol',
      fails: 'ap.step.list',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/steps\?/ },
          json((b) => ({ ...b, steps: [] })),
        ),
    },
  ],
  [
    'ap: a step answers with another id',
    {
      protocol: 'agent-protocol',
      fails: 'ap.step.get',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/steps\/[^/?]+$/ },
          json((b) => ({ ...b, step_id: 'other' })),
        ),
    },
  ],
  [
    'ap: uploads fail',
    {
      protocol: 'agent-protocol',
      fails: 'ap.artifact.upload',
      agent: () => broken(apAgent(), { method: 'POST', path: /\/artifacts$/ }, status(500)),
    },
  ],
  [
    'ap: the artifact list forgets uploads',
    {
      protocol: 'agent-protocol',
      fails: 'ap.artifact.list',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/artifacts\?/ },
          json((b) => ({ ...b, artifacts: [] })),
        ),
    },
  ],
  [
    'ap: downloads are corrupted',
    {
      protocol: 'agent-protocol',
      fails: 'ap.artifact.download',
      agent: () => broken(apAgent(), { method: 'GET', path: /\/artifacts\/[^/?]+$/ }, text('corrupted')),
    },
  ],
  [
    'ap: unknown tasks answer 200',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.not-found',
      agent: () => broken(apAgent(), { method: 'GET', path: /conformance-no-such-task/ }, status(200)),
    },
  ],
  [
    'ap: a numeric input is accepted',
    {
      protocol: 'agent-protocol',
      fails: 'ap.task.invalid',
      agent: () =>
        broken(
          apAgent(),
          { method: 'POST', path: /\/tasks$/, body: body('"input":42') },
          request((r, b) => withInput(r, b, { input: 'forty-two' })),
        ),
    },
  ],
  [
    'ap: a task without artifacts',
    {
      protocol: 'agent-protocol',
      fails: 'ap.wire.schemas',
      agent: () =>
        broken(
          apAgent(),
          { method: 'GET', path: /\/tasks\/task-[^/]+$/ },
          json(({ artifacts: _, ...b }) => b),
        ),
    },
  ],
  // AgentScope
  [
    'as: health fails',
    {
      protocol: 'agentscope',
      fails: 'as.health',
      agent: () => broken(scopeAgent('1.1'), { method: 'GET', path: /^\/health$/ }, status(503)),
    },
  ],
  [
    'as: the stream is labelled JSON',
    {
      protocol: 'agentscope',
      fails: 'as.process.stream',
      agent: () =>
        broken(
          scopeAgent('1.1'),
          { method: 'POST', path: /^\/process$/ },
          header('content-type', 'application/json'),
        ),
    },
  ],
  [
    'as: a delta is lost',
    {
      protocol: 'agentscope',
      fails: 'as.stream.rules',
      agent: () =>
        broken(
          scopeAgent('1.1'),
          { method: 'POST', path: /^\/process$/ },
          sse((e) => e.filter((_, i) => i !== 4)),
        ),
    },
  ],
  [
    'as: the response has no output',
    {
      protocol: 'agentscope',
      fails: 'as.response.output',
      agent: () =>
        broken(
          scopeAgent('1.1'),
          { method: 'POST', path: /^\/process$/ },
          sse((e) => e.map((x, i) => (i === e.length - 1 ? { ...x, output: [] } : x))),
        ),
    },
  ],
  [
    'as: the response forgets the session',
    {
      protocol: 'agentscope',
      fails: 'as.session',
      agent: () =>
        broken(
          scopeAgent('0.1'),
          { method: 'POST', path: /^\/process$/ },
          sse((e) => e.map((x) => (x.object === 'response' ? { ...x, session_id: 'other' } : x))),
        ),
    },
  ],
  [
    'as: every turn of a session is answered by the same response',
    {
      protocol: 'agentscope',
      fails: 'as.session.continuity',
      agent: () =>
        broken(
          scopeAgent('0.1'),
          { method: 'POST', path: /^\/process$/, body: body('conformance-continuity') },
          sse((e) => e.map((x) => (x.object === 'response' ? { ...x, id: 'response-always-the-same' } : x))),
        ),
    },
  ],
  [
    'as: a request without input is run',
    {
      protocol: 'agentscope',
      fails: 'as.request.invalid',
      agent: () =>
        broken(
          scopeAgent('1.1'),
          { method: 'POST', path: /^\/process$/, body: (t) => !t.includes('"input"') },
          request((r, b) => withInput(r, b, { input: [] })),
        ),
    },
  ],
  [
    'as: created_at is a string',
    {
      protocol: 'agentscope',
      fails: 'as.wire.schemas',
      agent: () =>
        broken(
          scopeAgent('1.1'),
          { method: 'POST', path: /^\/process$/ },
          sse((e) => e.map((x) => (x.object === 'response' ? { ...x, created_at: 'now' } : x))),
        ),
    },
  ],
  // Fixie
  [
    'fixie: the handshake fails',
    {
      protocol: 'fixie',
      fails: 'fixie.handshake',
      agent: () => broken(fixieAgent(), { method: 'GET', path: /^\/$/ }, status(500)),
    },
  ],
  [
    'fixie: no YAML handshake',
    {
      protocol: 'fixie',
      fails: 'fixie.handshake.yaml',
      agent: () =>
        broken(
          fixieAgent(),
          { method: 'GET', path: /^\/$/ },
          request((r) => new Request(r.url, { headers: { accept: 'application/json' } })),
        ),
    },
  ],
  [
    'fixie: a few-shot ends with a newline',
    {
      protocol: 'fixie',
      fails: 'fixie.few-shots',
      agent: () =>
        broken(
          fixieAgent(),
          { method: 'GET', path: /^\/$/ },
          json((b) => ({ ...b, few_shots: b.few_shots.map((f: string) => `${f}\n`) })),
        ),
    },
  ],
  [
    'fixie: a function fails',
    {
      protocol: 'fixie',
      fails: 'fixie.function.call',
      agent: () => broken(fixieAgent(), { method: 'POST', path: /^\/genrand$/ }, status(500)),
    },
  ],
  [
    'fixie: an unknown function has the wrong code',
    {
      protocol: 'fixie',
      fails: 'fixie.function.unknown',
      agent: () =>
        broken(
          fixieAgent(),
          { method: 'POST', path: /no_such_func/ },
          json((b) => ({ ...b, error: { ...b.error, code: 'ERR_NOT_FOUND' } })),
        ),
    },
  ],
  [
    'fixie: a body without text is taken',
    {
      protocol: 'fixie',
      fails: 'fixie.function.invalid',
      agent: () =>
        broken(
          fixieAgent(),
          { method: 'POST', path: /^\/genrand$/, body: body('ttt') },
          request(
            (r) =>
              new Request(r.url, { method: 'POST', headers: r.headers, body: '{"message":{"text":"0, 1"}}' }),
          ),
        ),
    },
  ],
  [
    'fixie: the standalone stream is empty',
    {
      protocol: 'fixie',
      fails: 'fixie.standalone.stream',
      agent: () =>
        broken(
          createReferenceStandaloneAgent(),
          { method: 'POST', path: /^\/$/ },
          ndjson(() => []),
        ),
    },
  ],
  [
    'fixie: the corpus fails',
    {
      protocol: 'fixie',
      fails: 'fixie.corpus',
      agent: () => broken(fixieAgent(), { method: 'POST', path: /^\/corpus\// }, status(500)),
    },
  ],
  [
    'fixie: text is a number',
    {
      protocol: 'fixie',
      fails: 'fixie.wire.schemas',
      agent: () =>
        broken(
          fixieAgent(),
          { method: 'POST', path: /^\/genrand$/ },
          json((b) => ({ ...b, message: { ...b.message, text: 5 } })),
        ),
    },
  ],
  // Agent Protocol, draft 2025
  [
    'ap25: no agents listed',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.agents.list',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /^\/$/ },
          json(() => []),
        ),
    },
  ],
  [
    'ap25: describe lacks chat',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.describe',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /\/describe$/ },
          json((b) => ({ ...b, operations: [] })),
        ),
    },
  ],
  [
    'ap25: process fails',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.chat.start',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /\/process\?wait=true$/, body: body('ChatRequest') },
          status(500),
        ),
    },
  ],
  [
    'ap25: the stream never completes',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.events.stream',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /getevents\?.*stream=true/ },
          sse((e) => e.slice(0, -1)),
        ),
    },
  ],
  [
    'ap25: since is ignored',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.events.poll',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /since=1/ },
          json(() => []),
        ),
    },
  ],
  [
    'ap25: stream_request never completes',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.stream-request',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /stream_request$/ },
          sse((e) => e.slice(0, -1)),
        ),
    },
  ],
  [
    'ap25: run_id is not kept',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.run.continue',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /process/, body: body('"run_id"') },
          json((b) => ({ ...b, run_id: 999 })),
        ),
    },
  ],
  [
    'ap25: racing cancels are each answered as the one that ended the request',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.cancel.race',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /process/, body: body('CancelRequest') },
          acceptAgain(),
        ),
    },
  ],
  [
    'ap25: racing resumes are each taken',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.resume.race',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /process/, body: body('ResumeWithInput') },
          acceptAgain(),
        ),
    },
  ],
  [
    'ap25: canceling a completed request crashes',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.cancel',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /process/, body: body('CancelRequest') },
          status(500),
        ),
    },
  ],
  [
    'ap25: a resumed request never completes',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.hitl',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'POST', path: /process/, body: body('ResumeWithInput') },
          status(500),
        ),
    },
  ],
  [
    'ap25: a canceled request says it succeeded',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.cancel.running',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /getevents\?request_id=.*&stream=true/ },
          sse((events) =>
            events.map((e) =>
              e.type === 'RequestCompleted' && e.finish_reason === 'canceled'
                ? { ...e, finish_reason: 'success' }
                : e,
            ),
          ),
        ),
    },
  ],
  [
    'ap25: unknown requests answer 200',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.request.unknown',
      agent: () =>
        broken(createReferenceServer(), { method: 'GET', path: /no-such-request/ }, async () =>
          Response.json([]),
        ),
    },
  ],
  [
    'ap25: a chat without input is taken',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.request.invalid',
      agent: () =>
        broken(
          createReferenceServer(),
          {
            method: 'POST',
            path: /process$/,
            body: (t) => t.includes('ChatRequest') && !t.includes('input'),
          },
          request((r, b) => withInput(r, b, { input: 'x' })),
        ),
    },
  ],
  [
    'ap25: runs are forgotten',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.runs',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /\/runs$/ },
          json(() => []),
        ),
    },
  ],
  [
    'ap25: the name is a number',
    {
      protocol: 'agent-protocol-2025',
      fails: 'ap25.wire.schemas',
      agent: () =>
        broken(
          createReferenceServer(),
          { method: 'GET', path: /\/describe$/ },
          json((b) => ({ ...b, name: 5 })),
        ),
    },
  ],
];

// The awaiting_input extension's dialogue, on the cutting-board agent.
const STEPS = /^\/ap\/v1\/agent\/tasks\/[^/]+\/steps$/;
faults.push(
  [
    'ap awaiting_input: the question says it is the last step',
    {
      protocol: 'agent-protocol@v1-awaiting-input',
      fails: 'ap.awaiting.ask',
      agent: () =>
        broken(
          cuttingBoard(),
          { method: 'POST', path: STEPS },
          json((b) => (b.status === 'awaiting_input' ? { ...b, is_last: true } : b)),
        ),
    },
  ],
  [
    'ap awaiting_input: a step without the answer is taken as one',
    {
      protocol: 'agent-protocol@v1-awaiting-input',
      fails: 'ap.awaiting.answer-required',
      // Every step request gets an input, so the agent never sees one without the answer.
      agent: () =>
        broken(
          cuttingBoard(),
          { method: 'POST', path: STEPS, body: (t) => !t.includes('"input"') },
          request((r, b) => withInput(r, b, { input: 'plastic' })),
        ),
    },
  ],
  [
    'ap awaiting_input: the answer fails',
    {
      protocol: 'agent-protocol@v1-awaiting-input',
      fails: 'ap.awaiting.answer',
      agent: () =>
        broken(cuttingBoard(), { method: 'POST', path: STEPS, body: body('I like wood') }, status(500)),
    },
  ],
);
faults.push(...a2aFaults, ...mcpFaults);

// The schema-driven checks of every suite, each against three faults a real server has: a crash on text that is not
// ASCII, a refusal turned into a 200, and errors written as an HTML page.
const fuzzAgents: Array<[string, string, () => App]> = [
  ['ap', 'agent-protocol', apAgent],
  ['as', 'agentscope@1.1', () => scopeAgent('1.1')],
  ['fixie', 'fixie', () => fixieAgent()],
  ['ap25', 'agent-protocol-2025', createReferenceServer],
  ['a2a', 'a2a', () => createA2aReference({ chunkDelayMs: 0, onError: () => {} }).app],
  ['mcp', 'mcp@2025-11-25', () => createMcpReference().app],
];
const everything = { method: 'POST', path: /.*/ };
for (const [prefix, protocol, app] of fuzzAgents)
  faults.push(
    [
      `${prefix}: a body with text that is not ASCII crashes the agent`,
      {
        protocol,
        fuzz: true,
        fails: `${prefix}.fuzz.valid`,
        agent: () =>
          broken(
            app(),
            { ...everything, body: (t) => [...t].some((c) => c.charCodeAt(0) > 0x7f) },
            status(500),
          ),
      },
    ],
    [
      `${prefix}: a refused request is answered 200`,
      {
        protocol,
        fuzz: true,
        fails: `${prefix}.fuzz.invalid`,
        agent: () => broken(app(), everything, refusalsAccepted),
      },
    ],
    [
      `${prefix}: errors come as an HTML page`,
      {
        protocol,
        fuzz: true,
        fails: `${prefix}.fuzz.declared`,
        agent: () => broken(app(), everything, errorsAsHtml),
      },
    ],
  );

// A stream that ends without its terminal event is judged as a whole: the schema-driven checks fail it, though each
// event it holds is valid.
faults.push([
  'as: every stream ends one event early',
  {
    protocol: 'agentscope@1.1',
    fuzz: true,
    fails: 'as.fuzz.valid',
    agent: () => broken(scopeAgent('1.1'), everything, lastEventDropped),
  },
]);

/** Each broken agent's report, run once whichever test asks first (each test still runs alone, or in any order). */
const reports = new Map<string, Promise<Report>>();
function reportOf(name: string): Promise<Report> {
  let report = reports.get(name);
  if (!report) {
    const { protocol, agent, fuzz } = faults.find(([n]) => n === name)?.[1] ?? {};
    if (!protocol || !agent) throw new Error(`no broken agent "${name}"`);
    // With the schema-driven checks, a shorter timeout: an open subscription is left after a tenth of it.
    report = runConformance({
      protocol,
      target: agent(),
      timeoutMs: fuzz ? 2_000 : 5_000,
      ...(fuzz ? FUZZ : {}),
    });
    reports.set(name, report);
  }
  return report;
}

/** The one fault that makes an agent answer its first request as no agent of its protocol does: the card is a 404. */
const NOT_SPEAKING = ['a2a: no agent card'];

describe('conformance > broken agents', () => {
  it.each(faults)('%s', async (name, { fails }) => {
    const report = await reportOf(name);
    const check = report.checks.find((c) => c.id === fails);
    expect(check?.status, JSON.stringify(check)).toBe('fail');
    // It fails on its own finding, not because a check it builds on failed first.
    expect(check?.message).not.toMatch(/^(cannot be carried out|the check could not be carried out)/);
    // The failure says what was sent and what went wrong.
    expect(check?.message.length).toBeGreaterThan(10);
    // An agent that speaks its protocol, however broken, has its checks run: none is blocked.
    if (!NOT_SPEAKING.includes(name)) {
      expect(report.checks.filter((c) => c.status === 'blocked')).toEqual([]);
      expect(report.diagnosis).toBeUndefined();
    }
  });

  // Runs every broken agent itself (they are in memory and quick), so it holds when run alone or in any order.
  it('coverage > every check of every suite was seen failing', async () => {
    const seenFailing = new Map<string, Set<string>>();
    for (const [name] of faults) {
      const report = await reportOf(name);
      const set = seenFailing.get(report.protocol) ?? new Set<string>();
      // A check counts when it failed on its own finding, not because a check it builds on failed before it.
      for (const c of report.checks)
        if (
          c.status === 'fail' &&
          !/^(cannot be carried out|the check could not be carried out)/.test(c.message)
        )
          set.add(c.id);
      seenFailing.set(report.protocol, set);
    }
    // Every version with a suite: a check one version adds (the awaiting_input dialogue) is counted with its protocol.
    const withSuites: string[] = [];
    for (const p of knownProtocols())
      for (const { version } of p.versions)
        if ((await resolveBinding(`${p.protocol}@${version}`)).suite)
          withSuites.push(`${p.protocol}@${version}`);
    expect(withSuites.length).toBeGreaterThan(4);
    for (const spec of withSuites) {
      const { suite } = await resolveSuite(spec);
      const prefix = suite.checks.find((c) => c.id.endsWith('.wire.schemas'))?.id.split('.')[0] ?? '';
      const never = [...suite.checks, ...fuzzChecks(prefix)]
        .map((c) => c.id)
        .filter((id) => !seenFailing.get(suite.protocol)?.has(id));
      expect(never, `${spec}: never seen failing`).toEqual([]);
    }
  });
});
