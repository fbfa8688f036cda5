// The conformance suite of the AgentScope Agent API (0.1 and 1.1 differ in the shapes the kit validates, not in the
// scenario). The kit (@agentproto/conformance) runs it; the generated binding loads it only for a conformance run.
import {
  CheckFailure,
  expectBody,
  expectEventStream,
  expectStatus,
  expectStreamRules,
  type StreamedExchange,
  type Suite,
  streamValues,
} from '@agentproto/runtime/contract';
import { isObjectLike } from '../is-object-like.js';

const DOC = 'AgentScope Agent API (cookbook protocol.md; agent_schemas.py)';

/** The AgentScope suite, for either version: a streamed answer that keeps every stream rule, health, refusals. */
export function createSuite(version: string): Suite {
  return {
    protocol: 'agentscope',
    // Upstream 1.x refuses inside a 200 stream: an error frame, or a failed response.
    refusesInStream: (item) => {
      const v = isObjectLike(item) ? item : {};
      return ('error' in v && !('object' in v)) || (v.object === 'response' && v.status === 'failed');
    },
    checks: [
      {
        id: 'as.process.stream',
        level: 'MUST',
        title: 'POST /process answers text/event-stream',
        ref: `${DOC}: POST /process, 200 text/event-stream, data: frames`,
        covers: ['process.stream'],
      },
      {
        id: 'as.health',
        level: 'SHOULD',
        title: 'GET /health answers',
        ref: `${DOC}: AgentApp GET /health`,
        covers: ['health'],
      },
      {
        id: 'as.stream.rules',
        level: 'MUST',
        title: 'the stream keeps every stream rule',
        ref: 'schemas/agentscope/DECISIONS.md 19 (STREAM_RULES): Runner.stream_query event order',
        covers: ['stream.rules'],
      },
      {
        id: 'as.response.output',
        level: 'MUST',
        title: 'the completed response carries the assistant message',
        ref: `${DOC}: BaseResponse.output, the completed messages`,
        covers: ['response.output'],
      },
      {
        id: 'as.session',
        level: 'SHOULD',
        title: 'the response names the session it was asked for',
        ref: `${DOC}: AgentResponse.session_id`,
        covers: ['session.named'],
      },
      {
        id: 'as.session.continuity',
        level: 'SHOULD',
        title: 'two turns in one session are each answered in it, by a response of their own',
        ref: `${DOC}: "use session_id for conversation continuity"`,
        covers: ['session.continuity'],
      },
      {
        id: 'as.request.invalid',
        level: 'SHOULD',
        title: 'a request without input is refused',
        ref: `${DOC}: AgentRequest.input is required (4xx, or an error frame as AgentApp sends)`,
        covers: ['request.invalid'],
      },
      {
        id: 'as.wire.schemas',
        level: 'MUST',
        title: 'every event and body matches its schema',
        ref: `schemas/agentscope/${version}`,
        covers: ['wire.schemas'],
      },
    ],
    // The streamed answer to a first turn is the first request (GET /health is optional, so it cannot tell): an agent
    // that does not answer it as the protocol says speaks no AgentScope.
    probe: { check: 'as.process.stream', request: 'POST /process' },
    async run({ session, check, requirePassed }) {
      const request = {
        input: [
          {
            role: 'user',
            type: 'message',
            content: [{ type: 'text', text: 'Say hello to the conformance kit.' }],
          },
        ],
        session_id: 'conformance-session',
      };
      let processed: StreamedExchange | undefined;
      let events: Array<Record<string, unknown>> = [];
      await check('as.process.stream', async () => {
        processed = await session.stream('POST', '/process', 'sse', { json: request });
        events = expectEventStream(processed);
        return `${processed.items.length} events`;
      });
      await check('as.health', async () => {
        expectBody(await session.call('GET', '/health', { expect: { 200: 'HealthStatus' } }));
        return undefined;
      });
      await check('as.stream.rules', async () => {
        requirePassed('as.process.stream');
        if (processed) expectStreamRules(processed);
        return undefined;
      });
      const terminal = () => events.at(-1) ?? {};
      await check('as.response.output', async () => {
        requirePassed('as.process.stream');
        const last = terminal();
        if (last.object !== 'response' || last.status !== 'completed')
          throw new CheckFailure(
            `POST /process: the last event is ${last.object} ${String(last.status)}, expected a completed response`,
          );
        const output: unknown[] = Array.isArray(last.output) ? last.output : [];
        if (!output.some((m) => isObjectLike(m) && m.role === 'assistant' && m.status === 'completed'))
          throw new CheckFailure(
            "POST /process: the completed response's /output holds no completed assistant message",
          );
        return undefined;
      });
      await check('as.session', async () => {
        requirePassed('as.process.stream');
        const last = terminal();
        if (last.session_id !== request.session_id)
          throw new CheckFailure(
            `POST /process: the response's /session_id is ${JSON.stringify(last.session_id)}, expected "${request.session_id}"`,
          );
        return undefined;
      });
      // Two turns in a session of their own: each terminal response names the session, and the second is a new
      // response (a server that replays the first turn's answer keeps no conversation).
      await check('as.session.continuity', async () => {
        requirePassed('as.process.stream');
        const sessionId = `conformance-continuity-${Date.now().toString(36)}`;
        const turns: Array<{ id: unknown; session: unknown }> = [];
        for (const text of ['My name is Ada. Say hello.', 'What is my name?']) {
          const x = await session.stream('POST', '/process', 'sse', {
            json: {
              ...request,
              session_id: sessionId,
              input: [{ ...request.input[0], content: [{ type: 'text', text }] }],
            },
          });
          expectStatus(x, 200, `turn ${turns.length + 1}`);
          const last = streamValues<Record<string, unknown>>(x).at(-1);
          if (last?.object !== 'response')
            throw new CheckFailure(
              `${x.label} (turn ${turns.length + 1}): the stream did not end with a response`,
            );
          turns.push({ id: last.id, session: last.session_id });
        }
        const wrong = turns.findIndex((t) => t.session !== sessionId);
        if (wrong >= 0)
          throw new CheckFailure(
            `POST /process (turn ${wrong + 1}): the response's /session_id is ${JSON.stringify(turns[wrong]?.session)}, expected "${sessionId}"`,
          );
        if (turns[0]?.id === turns[1]?.id)
          throw new CheckFailure(
            `POST /process: both turns of session ${sessionId} were answered by response ${JSON.stringify(turns[0]?.id)}`,
          );
        return `2 turns in ${sessionId}`;
      });
      await check('as.request.invalid', async () => {
        const x = await session.stream('POST', '/process', 'sse', { json: { session_id: 'no input' } });
        if (x.status >= 400 && x.status < 500) return `refused with ${x.status}`;
        const last = streamValues<Record<string, unknown>>(x).at(-1);
        // Upstream 1.x refuses inside the stream: one error frame, or a failed response.
        if (
          x.status === 200 &&
          last &&
          (('error' in last && !('object' in last)) || last.status === 'failed')
        )
          return 'refused inside the stream';
        throw new CheckFailure(
          `${x.label} without input: answered ${x.status}${last ? ` ending with ${JSON.stringify(last).slice(0, 120)}` : ''}, expected a 4xx or a stream that fails`,
        );
      });
    },
  };
}
