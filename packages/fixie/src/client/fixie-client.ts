// The Fixie client: the handshake (JSON or YAML, few-shots checked against the grammar), function calls, standalone
// queries as a stream, and corpus pages, each answer checked against the schemas.
import {
  type ClientConnectionOptions,
  describeErrors,
  generatedClientOptions,
  type ValidationIssue,
} from '@agentproto/runtime';
import { parse as parseYaml } from 'yaml';
import { formatFewShotIssue, validateFewShots } from '../few-shot/grammar.js';
import type {
  AgentMetadata,
  AgentResponse,
  CorpusRequest,
  CorpusResponse,
  Message,
} from '../generated/1.0/index.js';
import { GENERATED } from '../generated/modules.js';
import { LATEST, type Version } from '../generated/versions.js';
import { isObjectLike } from '../is-object-like.js';

/** Options of a Fixie client: where the agent is, plus the bearer token to send. */
export interface FixieClientOptions extends ClientConnectionOptions {
  /** A bearer token to send with every request. */
  token?: string;
}

/** A call the agent refused or failed, or an answer that breaks the protocol. */
export class FixieError extends Error {
  override name = 'FixieError';
  constructor(
    message: string,
    /** The HTTP status. */
    readonly status?: number,
    /** The protocol's error code (`ERR_FUNC_NOT_DEFINED`, …), when the agent sent one. */
    readonly code?: string,
    /** The answer's body, or the list of problems with it. */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * A client for a Fixie agent: the handshake (read as JSON or YAML, checked against the schema and the few-shot
 * grammar), function calls, standalone queries as a stream, and corpus pages. Non-2xx answers throw FixieError with
 * the protocol's error code.
 */
export function createClient(options: FixieClientOptions = {}, version: Version = LATEST) {
  const { createFixieClient, validators } = GENERATED[version];
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const fetcher = options.fetch;
  const http = createFixieClient(
    generatedClientOptions({ ...options, headers: { ...options.headers, ...headers } }),
  );
  const refused = (status: number, body: unknown): FixieError => {
    // An AgentResponse's error has a code and a message; an answer of another shape says neither.
    const error = isObjectLike(body) ? body.error : undefined;
    if (error) {
      const said = isObjectLike(error) ? error : {};
      const code = typeof said.code === 'string' ? said.code : undefined;
      return new FixieError(`${String(said.code)}: ${String(said.message)}`, status, code, body);
    }
    const detail = isObjectLike(body) ? body.detail : undefined;
    return new FixieError(
      `the agent answered HTTP ${status}${detail ? `: ${String(detail)}` : ''}`,
      status,
      undefined,
      body,
    );
  };
  const message = (m: string | Message): Message => (typeof m === 'string' ? { text: m } : m);

  return {
    /** The generated openapi-fetch client underneath, for raw calls. */
    http,

    /**
     * The handshake (`GET /`), as JSON (default) or YAML. Either answer is read whatever was asked for, then checked
     * against AgentMetadata and, for a code-shot agent, the few-shot grammar.
     */
    async metadata(format: 'json' | 'yaml' = 'json'): Promise<AgentMetadata> {
      const url = new URL('/', options.baseUrl ?? 'http://localhost');
      const request = new Request(url, {
        headers: { ...options.headers, ...headers, accept: `application/${format}` },
      });
      const response = await (fetcher ? fetcher(request) : fetch(request));
      const text = await response.text();
      if (!response.ok) throw refused(response.status, safeParse(text));
      const type = response.headers.get('content-type') ?? '';
      let value: unknown;
      try {
        value = /yaml/.test(type) ? parseYaml(text) : JSON.parse(text);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new FixieError(
          `the handshake is not ${/yaml/.test(type) ? 'YAML' : 'JSON'}: ${why}`,
          response.status,
        );
      }
      const problems = checkMetadata(value, version);
      if (problems.length > 0)
        throw new FixieError(
          `the handshake breaks the protocol: ${problems[0]}`,
          response.status,
          undefined,
          problems,
        );
      // sound: checkMetadata found no problem, so the value passed validators.AgentMetadata.
      return value as AgentMetadata;
    },

    /** Calls a function (`POST /{func}`) with a text or a message. */
    async call(
      func: string,
      query: string | Message,
      init: { accessToken?: string } = {},
    ): Promise<AgentResponse> {
      const { data, error, response } = await http.invokeFunction({
        params: { path: { func } },
        body: { message: message(query), ...(init.accessToken ? { access_token: init.accessToken } : {}) },
      });
      if (!data) throw refused(response.status, error);
      return data;
    },

    /** Asks a standalone agent (`POST /`): iterate the result for each response as it arrives. */
    async *query(
      query: string | Message,
      init: { signal?: AbortSignal } = {},
    ): AsyncGenerator<AgentResponse> {
      const { items, error, response } = await http.queryStandalone({
        body: { message: message(query) },
        ...(init.signal ? { signal: init.signal } : {}),
      });
      if (!items) throw refused(response.status, error);
      let index = 0;
      for await (const item of items) {
        index++;
        if (!validators.AgentResponse(item)) {
          const first = describeErrors(validators.AgentResponse.errors)[0];
          throw new FixieError(
            `line ${index} of the stream breaks the protocol: ${first?.pointer}: ${first?.message}`,
          );
        }
        yield item;
      }
    },

    /** Asks a corpus function (`POST /corpus/{func}`) for partitions or a page. */
    async corpus(func: string, request: CorpusRequest = {}): Promise<CorpusResponse> {
      const { data, error, response } = await http.queryCorpus({ params: { path: { func } }, body: request });
      if (!data) throw refused(response.status, error);
      return data;
    },
  };
}

/** The client returned by {@link createClient}. */
export type FixieClient = ReturnType<typeof createClient>;

/**
 * Checks a handshake against AgentMetadata and, for a code-shot agent, every few-shot against the grammar
 * (conversational as the handshake says). Returns one line per problem.
 */
export function checkMetadata(value: unknown, version: Version = LATEST): string[] {
  const { validators } = GENERATED[version];
  if (!validators.AgentMetadata(value)) {
    return describeErrors(validators.AgentMetadata.errors).map(
      (i: ValidationIssue) => `${i.pointer || '(root)'}: ${i.message}`,
    );
  }
  if (value.type === 'standalone') return [];
  return validateFewShots(value.few_shots, { conversational: value.conversational ?? false }).map(
    (i) => `/few_shots/${i.fewShot}: ${formatFewShotIssue(i)}`,
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
