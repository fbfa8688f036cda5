// The conformance suite of the 2025 draft: describe, process, getevents and the stream of a turn, each check citing the
// draft. The kit (@agentproto/conformance) runs it; the generated binding loads it only for a conformance run.
import {
  CheckFailure,
  CheckSkipped,
  expectBody,
  expectStatus,
  expectStreamRules,
  type Suite,
  streamValues,
} from '@agentproto/runtime/contract';
import { isObjectLike } from '../is-object-like.js';

const DRAFT = 'Agent Protocol draft 2025 (README of 2025-02-21)';

type Event = Record<string, unknown> & { id: number; type: string; run_id: number; request_id?: string };

/**
 * The draft-2025 suite of `version`: discovery, a chat request from start to completion, streams, runs, cancel and
 * errors, each answer judged by that version's schemas (the kit reads them from its binding).
 */
export const createSuite = (version: string): Suite => ({
  protocol: 'agent-protocol-2025',
  checks: [
    {
      id: 'ap25.agents.list',
      level: 'MUST',
      title: 'GET / lists the agents',
      ref: `${DRAFT}: "/ -> list[name, path] pairs"`,
      covers: ['agents.list'],
    },
    {
      id: 'ap25.describe',
      level: 'MUST',
      title: 'describe answers the descriptor, with chat',
      ref: `${DRAFT}: describe -> AgentDescriptor; every agent supports ChatRequest`,
      covers: ['describe'],
    },
    {
      id: 'ap25.chat.start',
      level: 'MUST',
      title: 'process?wait=true answers RequestStarted',
      ref: `${DRAFT}: "POST /process (ChatRequest(input), wait=True) -> RequestStarted"`,
      covers: ['process.start'],
    },
    {
      id: 'ap25.events.stream',
      level: 'MUST',
      title: "getevents?stream=true streams the request's events to RequestCompleted",
      ref: `${DRAFT}: getevents stream=True publishes events via SSE; the minimum event set`,
      covers: ['events.lifecycle'],
    },
    {
      id: 'ap25.events.poll',
      level: 'SHOULD',
      title: 'getevents polls with since',
      ref: `${DRAFT}: getevents stream=False, since: event_id`,
      covers: ['events.poll'],
    },
    {
      id: 'ap25.stream-request',
      level: 'SHOULD',
      title: 'stream_request starts a request and streams it',
      ref: `${DRAFT}: /stream_request (Request) <-- events via SSE`,
      covers: ['stream-request'],
    },
    {
      id: 'ap25.run.continue',
      level: 'SHOULD',
      title: 'a request with run_id continues the run',
      ref: `${DRAFT}: "Continue a Run: POST /process (ChatRequest(run_id=?))"`,
      covers: ['run.continue'],
    },
    {
      id: 'ap25.cancel',
      level: 'SHOULD',
      title: 'CancelRequest on a request that completed is refused with 409',
      ref: `${DRAFT}: Canceling a Request; schemas/agent-protocol-2025/DECISIONS.md 17, 22`,
      covers: ['cancel.completed'],
    },
    {
      id: 'ap25.resume.not-waiting',
      level: 'SHOULD',
      title: 'ResumeWithInput for a request that is not waiting is refused with 409',
      ref: `${DRAFT}: Human in the Loop (ResumeWithInput after WaitForInput); schemas/agent-protocol-2025/DECISIONS.md 17, 23`,
      covers: ['resume.not-waiting'],
    },
    {
      id: 'ap25.request.unknown',
      level: 'MUST',
      title: 'an unknown request id answers 404',
      ref: 'schemas/agent-protocol-2025/DECISIONS.md 17',
      covers: ['request.unknown'],
    },
    {
      id: 'ap25.request.invalid',
      level: 'SHOULD',
      title: 'a ChatRequest without input is refused with 422',
      ref: `${DRAFT}: ChatRequest(Request): input: string`,
      covers: ['request.invalid'],
    },
    {
      id: 'ap25.runs',
      level: 'MAY',
      title: 'GET /runs and /getevents/{run_id} return the persisted runs',
      ref: `${DRAFT}: optional endpoints GET /runs, GET /getevents/{run_id}`,
      covers: ['runs.persisted'],
    },
    {
      id: 'ap25.hitl',
      level: 'MUST',
      title:
        'a request that waits for input is waiting_for_input, and ResumeWithInput takes it on to RequestCompleted',
      ref: `${DRAFT}: Human in the Loop (WaitForInput, then ResumeWithInput); schemas/agent-protocol-2025/DECISIONS.md 23`,
      covers: ['hitl'],
    },
    {
      id: 'ap25.cancel.running',
      level: 'MUST',
      title:
        'CancelRequest on a running request ends it with one RequestCompleted, canceled, and nothing after',
      ref: `${DRAFT}: Canceling a Request ("<-- RequestCompleted (finish_reason=canceled)")`,
      covers: ['cancel.running'],
    },
    {
      id: 'ap25.cancel.race',
      level: 'MUST',
      title:
        'three CancelRequests sent at once end a running request once: one RequestCompleted, the others 409',
      ref: 'schemas/agent-protocol-2025/DECISIONS.md 17, 22',
      covers: ['cancel.once'],
    },
    {
      id: 'ap25.resume.race',
      level: 'MUST',
      title: 'three ResumeWithInputs sent at once answer a question once: one taken, the others 409',
      ref: 'schemas/agent-protocol-2025/DECISIONS.md 17, 23',
      covers: ['resume.once'],
    },
    {
      id: 'ap25.wire.schemas',
      level: 'MUST',
      title: 'every answer and event matches its schema',
      ref: `schemas/agent-protocol-2025/${version}`,
      covers: ['wire.schemas'],
    },
  ],
  // The list of agents at the root is the first request: every other check addresses an agent it names.
  probe: { check: 'ap25.agents.list', request: 'GET /' },
  async run({ session, check, requirePassed, offer }) {
    let agent = '';
    let endpoints: string[] = [];
    await check('ap25.agents.list', async () => {
      const x = await session.call('GET', '/', { expect: { 200: 'AgentList' } });
      const list = expectBody<Array<{ path: string }>>(x);
      if (list.length === 0) throw new CheckFailure(`${x.label}: the list is empty`);
      agent = list[0]?.path ?? '';
      // The schema-driven checks address agents by name, the path's last segment.
      for (const entry of list) offer('agent', entry.path.replace(/^.*\//, ''));
      return `${list.length} agents`;
    });
    await check('ap25.describe', async () => {
      requirePassed('ap25.agents.list');
      const x = await session.call('GET', `${agent}/describe`, { expect: { 200: 'AgentDescriptor' } });
      const d = expectBody<{ operations: Array<{ name: string }>; endpoints: string[] }>(x);
      endpoints = d.endpoints;
      if (!d.operations.some((o) => o.name === 'chat'))
        throw new CheckFailure(`${x.label}: /operations lacks "chat"`);
      return undefined;
    });
    const start = async (body: Record<string, unknown>) => {
      const x = await session.call('POST', `${agent}/process?wait=true`, {
        json: body,
        expect: { 200: 'AgentEvent' },
      });
      return expectBody<Event>(x);
    };
    const follow = async (requestId: string) => {
      const x = await session.stream(
        'GET',
        `${agent}/getevents?request_id=${encodeURIComponent(requestId)}&stream=true`,
        'sse',
      );
      expectStatus(x, 200);
      expectStreamRules(x);
      return streamValues<Event>(x);
    };
    let first: Event | undefined;
    await check('ap25.chat.start', async () => {
      requirePassed('ap25.agents.list');
      first = await start({ type: 'ChatRequest', input: 'Hello from the conformance kit' });
      if (first.type !== 'RequestStarted')
        throw new CheckFailure(
          `POST ${agent}/process?wait=true: answered ${first.type}, expected RequestStarted`,
        );
      return `request ${first.request_id} in run ${first.run_id}`;
    });
    let events: Event[] = [];
    await check('ap25.events.stream', async () => {
      requirePassed('ap25.chat.start');
      events = await follow(String(first?.request_id));
      const types = events.map((e) => e.type);
      if (types[0] !== 'RequestStarted' || types.at(-1) !== 'RequestCompleted')
        throw new CheckFailure(
          `GET ${agent}/getevents: the events run ${types.join(', ')}, expected RequestStarted … RequestCompleted`,
        );
      return `${events.length} events`;
    });
    await check('ap25.events.poll', async () => {
      requirePassed('ap25.events.stream');
      const x = await session.call(
        'GET',
        `${agent}/getevents?request_id=${encodeURIComponent(String(first?.request_id))}&since=1`,
        { expect: { 200: 'EventList' } },
      );
      const ids = expectBody<Event[]>(x).map((e) => e.id);
      const want = events.filter((e) => e.id > 1).map((e) => e.id);
      if (JSON.stringify(ids) !== JSON.stringify(want))
        throw new CheckFailure(
          `${x.label}: returned ids [${ids.join(', ')}], expected [${want.join(', ')}] (the events after id 1)`,
        );
      return undefined;
    });
    await check('ap25.stream-request', async () => {
      requirePassed('ap25.agents.list');
      const x = await session.stream('POST', `${agent}/stream_request`, 'sse', {
        json: { type: 'ChatRequest', input: 'Stream this' },
      });
      expectStatus(x, 200);
      expectStreamRules(x);
      const types = streamValues<Event>(x).map((e) => e.type);
      if (types.at(-1) !== 'RequestCompleted')
        throw new CheckFailure(
          `${x.label}: the stream ended with ${types.at(-1)}, expected RequestCompleted`,
        );
      return undefined;
    });
    await check('ap25.run.continue', async () => {
      requirePassed('ap25.events.stream');
      const next = await start({ type: 'ChatRequest', input: 'And again', run_id: first?.run_id });
      if (next.run_id !== first?.run_id)
        throw new CheckFailure(
          `POST ${agent}/process: /run_id is ${next.run_id}, expected ${first?.run_id} (the run continued)`,
        );
      const lastId = events.at(-1)?.id ?? 0;
      if (next.id <= lastId)
        throw new CheckFailure(
          `POST ${agent}/process: /id is ${next.id}, expected more than ${lastId} (ids increase within a run)`,
        );
      await follow(String(next.request_id));
      return undefined;
    });
    await check('ap25.cancel', async () => {
      requirePassed('ap25.events.stream');
      // The first request has completed: canceling it is a conflict.
      const x = await session.call('POST', `${agent}/process?wait=true`, {
        json: { type: 'CancelRequest', request_id: first?.request_id },
        expect: { 409: 'Problem', 200: 'AgentEvent' },
      });
      expectBody(x, 409, 'canceling a completed request');
      return undefined;
    });
    await check('ap25.resume.not-waiting', async () => {
      requirePassed('ap25.events.stream');
      const x = await session.call('POST', `${agent}/process?wait=true`, {
        json: { type: 'ResumeWithInput', request_id: first?.request_id, request_keys: { answer: 'yes' } },
        expect: { 409: 'Problem', 200: 'AgentEvent' },
      });
      expectBody(x, 409, 'resuming a completed request');
      return undefined;
    });
    await check('ap25.request.unknown', async () => {
      requirePassed('ap25.agents.list');
      const x = await session.call('GET', `${agent}/getevents?request_id=conformance-no-such-request`, {
        expect: { 404: 'Problem' },
      });
      expectBody(x, 404, 'an unknown request');
      return undefined;
    });
    await check('ap25.request.invalid', async () => {
      requirePassed('ap25.agents.list');
      const x = await session.call('POST', `${agent}/process`, { json: { type: 'ChatRequest' } });
      expectStatus(x, 422, 'a ChatRequest without input');
      return undefined;
    });
    // Polls a request's events after `since` until one passes `stop` (at most 400 polls, 25 ms apart): a request that
    // waits for input keeps its stream open, so the flows below read it by polling.
    const pollUntil = async (requestId: string, since: number, stop: (e: Event) => boolean) => {
      const seen: Event[] = [];
      for (let i = 0; i < 400; i++) {
        const x = await session.call(
          'GET',
          `${agent}/getevents?request_id=${encodeURIComponent(requestId)}&since=${seen.at(-1)?.id ?? since}`,
          { expect: { 200: 'EventList' } },
        );
        seen.push(...expectBody<Event[]>(x));
        if (seen.some(stop)) return seen;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return seen;
    };
    // The draft's human-in-the-loop flow, on an agent that asks: the prompt is the draft's shopping example.
    const HITL_PROMPT = 'Please buy me a set of cutting boards';
    // Starts the shopping request and waits for its question; skips the check when the agent asks none.
    const askedForInput = async () => {
      const requestId = String((await start({ type: 'ChatRequest', input: HITL_PROMPT })).request_id);
      const before = await pollUntil(
        requestId,
        0,
        (e) => e.type === 'WaitForInput' || e.type === 'RequestCompleted',
      );
      const wait = before.find((e) => e.type === 'WaitForInput');
      if (!wait)
        throw new CheckSkipped(
          `the agent asked for no input for "${HITL_PROMPT}": it claims no human-in-the-loop step to check`,
        );
      return { requestId, wait };
    };
    await check('ap25.hitl', async () => {
      requirePassed('ap25.events.stream');
      const { requestId, wait } = await askedForInput();
      const state = await session.call('GET', `${agent}/request/${encodeURIComponent(requestId)}`, {
        expect: { 200: 'RequestStatus' },
      });
      const { status } = expectBody<{ status?: string }>(state);
      if (status !== 'waiting_for_input')
        throw new CheckFailure(
          `${state.label}: /status is ${JSON.stringify(status)} after WaitForInput, expected "waiting_for_input"`,
        );
      // An answer for every key the agent asked for.
      const keys = Object.keys(isObjectLike(wait.request_keys) ? wait.request_keys : {});
      const resumed = await session.call('POST', `${agent}/process?wait=true`, {
        json: {
          type: 'ResumeWithInput',
          request_id: requestId,
          request_keys: Object.fromEntries(keys.map((k) => [k, 'wooden'])),
        },
        expect: { 200: 'AgentEvent' },
      });
      expectBody(resumed);
      const after = await pollUntil(requestId, wait.id, (e) => e.type === 'RequestCompleted');
      const done = after.find((e) => e.type === 'RequestCompleted');
      if (!done)
        throw new CheckFailure(
          `GET ${agent}/getevents: no RequestCompleted after ResumeWithInput within 10 s`,
        );
      if (done.finish_reason !== 'success')
        throw new CheckFailure(
          `GET ${agent}/getevents: the resumed request ended ${String(done.finish_reason)}, expected success`,
        );
      return `asked for ${keys.join(', ') || 'nothing'}; resumed to RequestCompleted`;
    });
    // The draft's cancel flow, on a request still running: the prompt asks for a long turn.
    const CANCEL_PROMPT = 'Count to 1000.';
    await check('ap25.cancel.running', async () => {
      requirePassed('ap25.events.stream');
      const started = await start({ type: 'ChatRequest', input: CANCEL_PROMPT });
      const requestId = String(started.request_id);
      const x = await session.call('POST', `${agent}/process?wait=true`, {
        json: { type: 'CancelRequest', request_id: requestId },
        expect: { 200: 'AgentEvent', 409: 'Problem' },
      });
      if (x.status === 409)
        throw new CheckSkipped(
          `the request for "${CANCEL_PROMPT}" completed before it could be canceled: the agent claims no long turn to check`,
        );
      const answer = expectBody<Event>(x);
      if (answer.type !== 'RequestCompleted' || answer.finish_reason !== 'canceled')
        throw new CheckFailure(
          `${x.label}: CancelRequest answered ${answer.type} (${String(answer.finish_reason)}), expected RequestCompleted with finish_reason canceled`,
        );
      const events = await follow(requestId);
      const completed = events.filter((e) => e.type === 'RequestCompleted');
      if (completed.length !== 1 || events.at(-1)?.type !== 'RequestCompleted')
        throw new CheckFailure(
          `GET ${agent}/getevents: ${completed.length} RequestCompleted events, or events after one; expected exactly one, last`,
        );
      if (completed[0]?.finish_reason !== 'canceled')
        throw new CheckFailure(
          `GET ${agent}/getevents: the canceled request's RequestCompleted says ${String(completed[0]?.finish_reason)}, expected canceled`,
        );
      return `canceled after ${events.length - 2} events`;
    });
    // Races: the same request canceled, or resumed, three times at once. Whatever order they arrive in, the request
    // ends once; every answer is either the one that took effect or a 409.
    const RACERS = 3;
    await check('ap25.cancel.race', async () => {
      requirePassed('ap25.events.stream');
      const requestId = String((await start({ type: 'ChatRequest', input: CANCEL_PROMPT })).request_id);
      const answers = await Promise.all(
        Array.from({ length: RACERS }, () =>
          session.call('POST', `${agent}/process?wait=true`, {
            json: { type: 'CancelRequest', request_id: requestId },
            expect: { 200: 'AgentEvent', 409: 'Problem' },
          }),
        ),
      );
      for (const x of answers) expectStatus(x, [200, 409], 'a racing cancel');
      const taken = answers.filter((x) => x.status === 200);
      if (taken.length === 0)
        throw new CheckSkipped(
          `the request for "${CANCEL_PROMPT}" completed before the cancels landed: the agent claims no long turn to check`,
        );
      if (taken.length > 1)
        throw new CheckFailure(
          `POST ${agent}/process: ${taken.length} of ${RACERS} racing CancelRequests were answered 200; one ends the request, the rest are 409`,
        );
      const events = await follow(requestId);
      const completed = events.filter((e) => e.type === 'RequestCompleted');
      if (completed.length !== 1 || events.at(-1)?.type !== 'RequestCompleted')
        throw new CheckFailure(
          `GET ${agent}/getevents: ${completed.length} RequestCompleted events after racing cancels, or events after one; expected exactly one, last`,
        );
      return `1 of ${RACERS} cancels took effect`;
    });
    await check('ap25.resume.race', async () => {
      requirePassed('ap25.events.stream');
      const { requestId, wait } = await askedForInput();
      const keys = Object.keys(isObjectLike(wait.request_keys) ? wait.request_keys : {});
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          session.call('POST', `${agent}/process?wait=true`, {
            json: {
              type: 'ResumeWithInput',
              request_id: requestId,
              request_keys: Object.fromEntries(keys.map((k) => [k, `answer ${i + 1}`])),
            },
            expect: { 200: 'AgentEvent', 409: 'Problem' },
          }),
        ),
      );
      for (const x of answers) expectStatus(x, [200, 409], 'a racing resume');
      const events = await pollUntil(requestId, 0, (e) => e.type === 'RequestCompleted');
      const asked = events.filter((e) => e.type === 'WaitForInput').length;
      const taken = answers.filter((x) => x.status === 200).length;
      // A resume answers one question; an agent that asks again may take a second, never more than it asked.
      if (taken === 0 || taken > asked)
        throw new CheckFailure(
          `POST ${agent}/process: ${taken} of ${RACERS} racing ResumeWithInputs were taken for ${asked} question${asked === 1 ? '' : 's'}; expected one per question`,
        );
      const completed = events.filter((e) => e.type === 'RequestCompleted');
      if (completed.length !== 1)
        throw new CheckFailure(
          `GET ${agent}/getevents: ${completed.length} RequestCompleted events after racing resumes, expected exactly one`,
        );
      return `${taken} of ${RACERS} resumes taken for ${asked} question${asked === 1 ? '' : 's'}`;
    });
    await check('ap25.runs', async () => {
      requirePassed('ap25.chat.start');
      if (!endpoints.some((e) => e === '/runs')) throw new CheckSkipped('describe does not list /runs');
      const runs = await session.call('GET', `${agent}/runs`, { expect: { 200: 'RunList' } });
      if (!expectBody<Array<{ run_id: number }>>(runs).some((r) => r.run_id === first?.run_id))
        throw new CheckFailure(`${runs.label}: the list lacks run ${first?.run_id}`);
      const all = await session.call('GET', `${agent}/getevents/${first?.run_id}`, {
        expect: { 200: 'EventList' },
      });
      const ids = expectBody<Event[]>(all).map((e) => e.id);
      if (ids.some((id, i) => i > 0 && id <= (ids[i - 1] ?? 0)))
        throw new CheckFailure(`${all.label}: the events are not in id order`);
      return `${ids.length} events in run ${first?.run_id}`;
    });
  },
});
