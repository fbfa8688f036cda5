// The conformance suite of the Fixie agent protocol: the handshake and its few-shots, each function they call, errors,
// streams and corpora. The kit (@agentproto/conformance) runs it; the generated binding loads it only for a
// conformance run.

import {
  CheckFailure,
  CheckSkipped,
  expectBody,
  expectContentType,
  expectStatus,
  expectStream,
  expectStreamRules,
  type Suite,
} from '@agentproto/runtime/contract';
import { formatFewShotIssue, validateFewShots } from '../few-shot/grammar.js';

const DOC = 'Fixie agent protocol (docs/agent-protocol.md; fixieai 1.0 agent_base.py)';

interface Handshake {
  type?: string;
  few_shots?: string[];
  conversational?: boolean;
  corpora?: Array<{ func_name?: string }> | null;
}

/** The Fixie suite: the handshake and its few-shots, each function the few-shots call, errors, streams, corpora. */
/** The Fixie 1.0 suite (it has one version). */
export const createSuite = (_version: string): Suite => ({
  protocol: 'fixie',
  checks: [
    {
      id: 'fixie.handshake',
      level: 'MUST',
      title: 'GET / answers the agent metadata',
      ref: `${DOC}: GET / returns the few-shot examples`,
      covers: ['handshake'],
    },
    {
      id: 'fixie.handshake.yaml',
      level: 'SHOULD',
      title: 'the handshake is served as YAML when asked',
      ref: 'fixieai 1.0: GET / answers application/yaml; schemas/fixie/DECISIONS.md 3',
      covers: ['handshake.yaml'],
    },
    {
      id: 'fixie.few-shots',
      level: 'MUST',
      title: 'the few-shots keep the grammar',
      ref: 'fixieai utils._validate_few_shot_prompt; schemas/fixie/DECISIONS.md 17',
      covers: ['few-shots.grammar'],
    },
    {
      id: 'fixie.function.call',
      level: 'MUST',
      title: 'every function the few-shots call answers',
      ref: `${DOC}: POST /FUNC returns the function's result as message.text`,
      covers: ['function.call'],
    },
    {
      id: 'fixie.function.unknown',
      level: 'MUST',
      title: 'an unknown function answers 404 ERR_FUNC_NOT_DEFINED',
      ref: 'fixieai 1.0: AgentError ERR_FUNC_NOT_DEFINED',
      covers: ['function.unknown'],
    },
    {
      id: 'fixie.function.invalid',
      level: 'SHOULD',
      title: 'a body without message.text is refused with 422',
      ref: 'fixieai 1.0 tests: {"message":{"ttt":…}} answers 422',
      covers: ['function.invalid'],
    },
    {
      id: 'fixie.standalone.stream',
      level: 'MUST',
      title: 'a standalone agent streams responses at POST /',
      ref: 'fixieai 1.0 standalone.py: newline-delimited AgentResponse',
      covers: ['standalone.stream'],
    },
    {
      id: 'fixie.corpus',
      level: 'MAY',
      title: 'each custom corpus function answers a page',
      ref: 'fixieai 1.0 corpora.py: POST /corpus/{func}',
      covers: ['corpus.page'],
    },
    {
      id: 'fixie.wire.schemas',
      level: 'MUST',
      title: 'every answer matches its schema',
      ref: 'schemas/fixie/1.0',
      covers: ['wire.schemas'],
    },
  ],
  // The handshake at the root is the first request: every other check builds on what it declares.
  probe: { check: 'fixie.handshake', request: 'GET /' },
  async run({ session, check, requirePassed, offer }) {
    let handshake: Handshake = {};
    await check('fixie.handshake', async () => {
      handshake = expectBody(await session.call('GET', '/', { expect: { 200: 'AgentMetadata' } }));
      return `a ${handshake.type ?? 'code_shot'} agent`;
    });
    await check('fixie.handshake.yaml', async () => {
      requirePassed('fixie.handshake');
      const x = await session.call('GET', '/', {
        headers: { accept: 'application/yaml' },
        expect: { 200: 'AgentMetadata' },
      });
      expectContentType(x, /yaml/, 'YAML, as Accept: application/yaml asked');
      if (JSON.stringify(expectBody(x)) !== JSON.stringify(handshake))
        throw new CheckFailure(`${x.label}: the YAML handshake differs from the JSON one`);
      return undefined;
    });
    const standalone = handshake.type === 'standalone';
    await check('fixie.few-shots', async () => {
      requirePassed('fixie.handshake');
      if (standalone) throw new CheckSkipped('the handshake says standalone: no few-shots');
      const issues = validateFewShots(handshake.few_shots ?? [], {
        conversational: handshake.conversational ?? false,
      });
      if (issues.length > 0)
        throw new CheckFailure(
          `GET /: /few_shots/${issues[0]?.fewShot}: ${issues.map(formatFewShotIssue).join('; ')}`,
        );
      return `${handshake.few_shots?.length ?? 0} few-shots`;
    });
    await check('fixie.function.call', async () => {
      requirePassed('fixie.handshake');
      if (standalone) throw new CheckSkipped('the handshake says standalone: no functions are claimed');
      // Each function the few-shots ask, with the text the few-shot sends it.
      const calls = new Map<string, string>();
      for (const f of handshake.few_shots ?? []) {
        for (const m of f.matchAll(/^Ask Func\[(\w+)\]: ?(.*)$/gm)) {
          if (m[1] && !m[1].startsWith('fixie_') && !calls.has(m[1])) calls.set(m[1], m[2] ?? '');
        }
      }
      if (calls.size === 0) throw new CheckSkipped('the few-shots call no function of the agent');
      for (const name of calls.keys()) offer('func', name);
      for (const [name, text] of calls) {
        const x = await session.call('POST', `/${name}`, {
          json: { message: { text } },
          expect: { 200: 'AgentResponse' },
        });
        expectBody(x, 200, `sent {"message":{"text":${JSON.stringify(text)}}}`);
      }
      return `${[...calls.keys()].join(', ')} answered`;
    });
    await check('fixie.function.unknown', async () => {
      const x = await session.call('POST', '/conformance_no_such_func', {
        json: { message: { text: 'x' } },
        expect: { 404: 'AgentResponse' },
      });
      const code = expectBody<{ error?: { code?: string } }>(x, 404, 'ERR_FUNC_NOT_DEFINED').error?.code;
      if (code !== 'ERR_FUNC_NOT_DEFINED')
        throw new CheckFailure(
          `${x.label}: /error/code is ${JSON.stringify(code)}, expected "ERR_FUNC_NOT_DEFINED"`,
        );
      return undefined;
    });
    await check('fixie.function.invalid', async () => {
      requirePassed('fixie.handshake');
      const name = standalone ? '' : /Ask Func\[(\w+)\]/.exec((handshake.few_shots ?? []).join('\n'))?.[1];
      if (!name) throw new CheckSkipped('no function is claimed to send an invalid body to');
      const x = await session.call('POST', `/${name}`, { json: { message: { ttt: 'Howdy' } } });
      expectStatus(x, 422, 'sent {"message":{"ttt":"Howdy"}}');
      return undefined;
    });
    await check('fixie.standalone.stream', async () => {
      requirePassed('fixie.handshake');
      if (!standalone)
        throw new CheckSkipped('the handshake says code_shot: no standalone endpoint is claimed');
      const x = await session.stream('POST', '/', 'ndjson', {
        json: { message: { text: 'Hello' } },
        itemType: 'AgentResponse',
      });
      expectStream(x, 'response');
      expectStreamRules(x, 'response');
      return `${x.items.length} responses`;
    });
    await check('fixie.corpus', async () => {
      requirePassed('fixie.handshake');
      const funcs = (handshake.corpora ?? [])
        .map((c) => c.func_name)
        .filter((f): f is string => typeof f === 'string');
      if (funcs.length === 0) throw new CheckSkipped('the handshake claims no custom corpus');
      for (const f of funcs) {
        expectBody(
          await session.call('POST', `/corpus/${f}`, { json: {}, expect: { 200: 'CorpusResponse' } }),
        );
      }
      return `${funcs.join(', ')} answered`;
    });
  },
});
