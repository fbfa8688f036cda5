// The conformance suite of MCP over Streamable HTTP, for every revision: the revision's way in (a handshake and its
// session, or discovery and the mirrored headers), the tools, resources and prompts the server announces, the errors
// the specification names, and the transport's refusals. What a revision does its own way comes from its traits.

import {
  type CheckedExchange,
  CheckFailure,
  CheckSkipped,
  expectRpcError,
  expectRpcResult,
  expectStatus,
  rpcErrorIn,
  type Suite,
  type SuiteSession,
  type Validator,
} from '@agentproto/runtime/contract';
import { mirroredHeaders } from '../client/mirrored-headers.js';
import { GENERATED } from '../generated/modules.js';
import { isObjectLike } from '../is-object-like.js';
import { mcpVersion, VERSION_TRAITS } from '../version-traits.js';

/** The endpoint every message goes to (openapi.yaml). */
const ENDPOINT = '/mcp';
const ACCEPT = 'application/json, text/event-stream';
/** The error a revision with UnsupportedProtocolVersionError answers an unknown MCP-Protocol-Version with. */
const MCP_UNSUPPORTED_VERSION = -32022;
const CLIENT = { name: 'agentproto-conformance', version: '0.1.0' };

type Json = Record<string, unknown>;
/** A revision's validators, by type name. */
type Validators = Readonly<Record<string, Validator>>;

/** A check's definition, with the requirement of the version's requirements.yaml it covers (the same id). */
const check = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', title: string, ref: string) => ({
  id: `mcp.${id}`,
  level,
  title,
  ref,
  covers: [id],
});

/** The MCP suite of one revision. */
export function createSuite(name: string): Suite {
  const version = mcpVersion(name);
  const traits = VERSION_TRAITS[version];
  const validators: Validators = GENERATED[version].validators;
  const SPEC = `MCP ${version}`;
  const wayIn = traits.handshake
    ? [
        check(
          'lifecycle.initialize',
          'MUST',
          'initialize answers the revision, capabilities and server',
          `${SPEC} basic/lifecycle: initialization`,
        ),
        check(
          'lifecycle.session',
          'MUST',
          'a request naming a session the server does not have is 404',
          `${SPEC} basic/transports: session management`,
        ),
        check(
          'lifecycle.session.required',
          'SHOULD',
          'a request without the session id, once one is given, is 400',
          `${SPEC} basic/transports: session management`,
        ),
        check('ping', 'MUST', 'ping answers an empty result', `${SPEC} basic/utilities/ping`),
        check(
          'notification.accepted',
          'MUST',
          'a notification is answered 202 with no body',
          `${SPEC} basic/transports: sending messages`,
        ),
      ]
    : [
        check(
          'discover',
          'MUST',
          'server/discover answers the revisions and capabilities',
          `${SPEC} server/discover`,
        ),
        check(
          'headers.mismatch',
          'MUST',
          'an Mcp-Method that disagrees with the body is 400 and -32020',
          `${SPEC} basic/transports/streamable-http: server validation`,
        ),
        check('result-type', 'MUST', 'every result says resultType', `${SPEC} basic/index: ResultType`),
      ];
  // The schema-driven checks speak the revision too, and (for a handshake revision) in the session the scenario opened:
  // the kit reads these headers after the scenario.
  const requestHeaders: Record<string, string> = { accept: ACCEPT, 'mcp-protocol-version': version };
  return {
    protocol: 'mcp',
    requestHeaders,
    ...(traits.requestHeaders ? { rpcHeaders: mirroredHeaders } : {}),
    // The transport refuses with its own status before any method runs (a header that disagrees with the body, a
    // missing session), and a revision with mirrored headers answers a method it does not serve with 404.
    rpcErrorStatuses: [400, 404],
    checks: [
      ...wayIn,
      check(
        'version.unsupported',
        'MUST',
        'a revision the server does not speak is refused with 400',
        `${SPEC} basic/transports: protocol version header`,
      ),
      check('tools.list', 'MUST', 'tools/list answers the tools', `${SPEC} server/tools: listing tools`),
      check(
        'tools.call',
        'MUST',
        'each tool that needs no arguments answers a CallToolResult',
        `${SPEC} server/tools: calling tools`,
      ),
      check('tools.unknown', 'SHOULD', 'an unknown tool is -32602', `${SPEC} server/tools: error handling`),
      check('resources.read', 'MUST', 'each listed resource reads', `${SPEC} server/resources`),
      check(
        'prompts.get',
        'MUST',
        'each prompt whose arguments are optional renders',
        `${SPEC} server/prompts`,
      ),
      check('method.unknown', 'MUST', 'a method the server does not have is -32601', 'JSON-RPC 2.0 §5.1'),
      check(
        'origin.foreign',
        'MUST',
        'a request from a foreign Origin is 403',
        `${SPEC} basic/transports: security warning`,
      ),
      check('wire.schemas', 'MUST', 'every answer matches its schema', `schemas/mcp/${version}`),
    ],
    // The way in is the first request: an endpoint that does not answer it in JSON-RPC speaks no MCP.
    probe: {
      check: traits.handshake ? 'mcp.lifecycle.initialize' : 'mcp.discover',
      request: `POST ${ENDPOINT}`,
    },
    async run({ session, check: run, requirePassed, surfaceAt, sideEffects }) {
      surfaceAt(ENDPOINT, 'json-rpc');
      const client = new Client(session, version, traits.handshake, traits.requestHeaders);
      let capabilities: Json = {};

      if (traits.handshake) {
        await run('mcp.lifecycle.initialize', async () => {
          const x = await client.initialize();
          const result = resultOf(x, 'InitializeResult', validators);
          capabilities = isObjectLike(result.capabilities) ? result.capabilities : {};
          if (client.session) requestHeaders['mcp-session-id'] = client.session;
          return `${String(result.protocolVersion)}; ${client.session ? 'a session' : 'no session'}`;
        });
        await run('mcp.lifecycle.session', async () => {
          requirePassed('mcp.lifecycle.initialize');
          if (!client.session) throw new CheckSkipped('the server keeps no sessions');
          expectStatus(
            await client.send('ping', undefined, { session: 'agentproto-no-such-session' }),
            404,
            'unknown session',
          );
          return undefined;
        });
        await run('mcp.lifecycle.session.required', async () => {
          requirePassed('mcp.lifecycle.initialize');
          if (!client.session) throw new CheckSkipped('the server keeps no sessions');
          expectStatus(
            await client.send('ping', undefined, { withoutSession: true }),
            400,
            'no Mcp-Session-Id',
          );
          return undefined;
        });
        await run('mcp.ping', async () => {
          requirePassed('mcp.lifecycle.initialize');
          resultOf(await client.send('ping'), 'EmptyResult', validators);
          return undefined;
        });
        await run('mcp.notification.accepted', async () => {
          requirePassed('mcp.lifecycle.initialize');
          const x = await client.notify('notifications/initialized');
          expectStatus(x, 202, 'a notification');
          return undefined;
        });
      } else {
        await run('mcp.discover', async () => {
          const result = resultOf(await client.send('server/discover'), 'DiscoverResult', validators);
          capabilities = isObjectLike(result.capabilities) ? result.capabilities : {};
          const supported: unknown[] = Array.isArray(result.supportedVersions)
            ? result.supportedVersions
            : [];
          if (!supported.includes(version))
            throw new CheckFailure(
              `POST ${ENDPOINT} server/discover: supportedVersions ${JSON.stringify(supported)} lacks "${version}"`,
            );
          return `speaks ${supported.join(', ')}`;
        });
        await run('mcp.headers.mismatch', async () => {
          const x = await client.send('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } });
          expectStatus(x, 400, 'HeaderMismatch');
          expectRpcError(x, -32020);
          return undefined;
        });
      }

      await run('mcp.version.unsupported', async () => {
        const x = await client.send(
          traits.handshake ? 'ping' : 'tools/list',
          {},
          { headers: { 'mcp-protocol-version': '1999-01-01' } },
        );
        expectStatus(x, 400, 'an unsupported MCP-Protocol-Version');
        // A revision that defines its own error for this (UnsupportedProtocolVersionError) must send it: a 400 for
        // another reason is not this refusal.
        if (validators.UnsupportedProtocolVersionError) expectRpcError(x, MCP_UNSUPPORTED_VERSION);
        return undefined;
      });

      const tools: Json[] = [];
      /** The way in passed, so that the capabilities are known: else a check cannot be carried out. */
      const wayInPassed = () => requirePassed(traits.handshake ? 'mcp.lifecycle.initialize' : 'mcp.discover');
      await run('mcp.tools.list', async () => {
        wayInPassed();
        if (!capabilities.tools) throw new CheckSkipped('the server announces no tools');
        const result = resultOf(await client.send('tools/list', {}), 'ListToolsResult', validators);
        tools.push(...objectsIn(result.tools));
        return `${tools.length} tools`;
      });
      await run('mcp.tools.call', async () => {
        requirePassed('mcp.tools.list');
        const needsNoArguments = tools.filter((t) => {
          const required = isObjectLike(t.inputSchema) ? t.inputSchema.required : undefined;
          return !Array.isArray(required) || required.length === 0;
        });
        if (needsNoArguments.length === 0)
          throw new CheckSkipped('every tool needs arguments this suite cannot make up');
        // A tool may change the world (§ tool annotations: destructiveHint defaults to true): unless the run allows side
        // effects, only the tools the server annotates read-only are called.
        const free = sideEffects
          ? needsNoArguments
          : needsNoArguments.filter(
              (t) => isObjectLike(t.annotations) && t.annotations.readOnlyHint === true,
            );
        const notCalled = needsNoArguments.length - free.length;
        if (free.length === 0)
          throw new CheckSkipped(
            `no tool that needs no arguments is annotated readOnlyHint: the kit calls only those (--side-effects calls all ${notCalled})`,
          );
        const answered: string[] = [];
        for (const tool of free) {
          try {
            const x = await client.send('tools/call', { name: tool.name, arguments: {} });
            if (traits.capabilityError && refusedForCapability(x)) continue;
            resultOf(x, 'CallToolResult', validators);
          } catch (error) {
            // Which tool failed, said once, in front of why.
            const why = error instanceof Error ? error.message : String(error);
            throw new CheckFailure(`tool ${JSON.stringify(tool.name)}: ${why}`);
          }
          answered.push(String(tool.name));
        }
        const refused = free.length - answered.length;
        return `${answered.join(', ')} answered${refused > 0 ? `; ${refused} refused for a capability this suite does not declare` : ''}${notCalled > 0 ? `; ${notCalled} not called: not annotated readOnlyHint (--side-effects calls them)` : ''}`;
      });
      await run('mcp.tools.unknown', async () => {
        wayInPassed();
        if (!capabilities.tools) throw new CheckSkipped('the server announces no tools');
        expectRpcError(
          await client.send('tools/call', { name: 'agentproto_no_such_tool', arguments: {} }),
          -32602,
        );
        return undefined;
      });
      await run('mcp.resources.read', async () => {
        wayInPassed();
        if (!capabilities.resources) throw new CheckSkipped('the server announces no resources');
        const listed = resultOf(await client.send('resources/list', {}), 'ListResourcesResult', validators);
        const resources = objectsIn(listed.resources);
        if (resources.length === 0) throw new CheckSkipped('the server lists no resources');
        for (const r of resources)
          resultOf(await client.send('resources/read', { uri: r.uri }), 'ReadResourceResult', validators);
        return `${resources.length} read`;
      });
      await run('mcp.prompts.get', async () => {
        wayInPassed();
        if (!capabilities.prompts) throw new CheckSkipped('the server announces no prompts');
        const listed = resultOf(await client.send('prompts/list', {}), 'ListPromptsResult', validators);
        const free = objectsIn(listed.prompts).filter(
          (p) => !objectsIn(p.arguments).some((a) => a.required === true),
        );
        if (free.length === 0)
          throw new CheckSkipped('every prompt needs arguments this suite cannot make up');
        const rendered: string[] = [];
        for (const p of free) {
          const x = await client.send('prompts/get', { name: p.name });
          if (traits.capabilityError && refusedForCapability(x)) continue;
          resultOf(x, 'GetPromptResult', validators);
          rendered.push(String(p.name));
        }
        return `${rendered.join(', ')} rendered${rendered.length < free.length ? `; ${free.length - rendered.length} refused for a capability this suite does not declare` : ''}`;
      });
      await run('mcp.method.unknown', async () => {
        const x = await client.send('agentproto/no-such-method', {});
        expectRpcError(x, -32601);
        return undefined;
      });
      await run('mcp.origin.foreign', async () => {
        const x = await client.send(
          traits.handshake ? 'ping' : 'tools/list',
          {},
          { headers: { origin: 'https://agentproto-conformance.invalid' } },
        );
        expectStatus(x, 403, 'a foreign Origin');
        return undefined;
      });
      if (!traits.handshake)
        await run('mcp.result-type', async () => {
          requirePassed('mcp.discover');
          if (client.resultTypes.missing.length > 0)
            throw new CheckFailure(`results without resultType: ${client.resultTypes.missing.join(', ')}`);
          return `${client.resultTypes.seen} results`;
        });
    },
  };
}

/** Options of one message. */
interface SendOptions {
  headers?: Record<string, string>;
  session?: string;
  withoutSession?: boolean;
}

/** A client of the suite's own: the revision's headers, the session, request ids, and what the results said. */
class Client {
  session: string | undefined;
  #id = 0;
  readonly resultTypes: { seen: number; missing: string[] } = { seen: 0, missing: [] };
  constructor(
    private readonly http: SuiteSession,
    private readonly version: string,
    private readonly handshake: boolean,
    private readonly mirrored: boolean,
  ) {}

  async initialize(): Promise<CheckedExchange> {
    const x = await this.send('initialize', {
      protocolVersion: this.version,
      capabilities: {},
      clientInfo: CLIENT,
    });
    this.session = x.headers.get('mcp-session-id') ?? undefined;
    return x;
  }

  send(method: string, params?: Json, options: SendOptions = {}): Promise<CheckedExchange> {
    return this.#post(
      {
        jsonrpc: '2.0',
        id: ++this.#id,
        method,
        ...(params || !this.handshake ? { params: this.#params(params) } : {}),
      },
      options,
    );
  }

  notify(method: string, options: SendOptions = {}): Promise<CheckedExchange> {
    return this.#post({ jsonrpc: '2.0', method }, options);
  }

  #params(params: Json = {}): Json {
    if (this.handshake) return params;
    return {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': this.version,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': CLIENT,
      },
    };
  }

  async #post(message: Json, options: SendOptions): Promise<CheckedExchange> {
    const method = String(message.method);
    const params = message.params ?? {};
    const session = options.withoutSession ? undefined : (options.session ?? this.session);
    const headers: Record<string, string> = {
      accept: ACCEPT,
      ...(method === 'initialize' ? {} : { 'mcp-protocol-version': this.version }),
      ...(session ? { 'mcp-session-id': session } : {}),
      ...(this.mirrored ? mirroredHeaders(method, params) : {}),
      ...options.headers,
    };
    const x = await this.http.call('POST', ENDPOINT, {
      json: message,
      headers,
      // A server may answer any request with an event stream that ends in the response.
      ...(typeof message.id === 'number' ? { answerId: message.id } : {}),
      expect: {
        200: 'JSONRPCResponse',
        ...Object.fromEntries(
          [400, 403, 404, 405, 406, 413].map((status) => [status, 'JSONRPCErrorResponse']),
        ),
      },
    });
    const result = isObjectLike(x.body) ? x.body.result : undefined;
    if (result && !this.handshake) {
      this.resultTypes.seen++;
      if (!isObjectLike(result) || typeof result.resultType !== 'string')
        this.resultTypes.missing.push(method);
    }
    return x;
  }
}

/** The result of a JSON-RPC answer, checked against its type; fails naming the error or the schema problems. */
function resultOf(x: CheckedExchange, type: string, validators: Validators): Json {
  const result = expectRpcResult(x, { type, validate: validators[type] });
  // Every result type of MCP is an object; a revision without this type's validator still gets no bare value.
  if (!isObjectLike(result))
    throw new CheckFailure(`${x.label}: the result is not a ${type}: ${String(result)}`);
  return result;
}

/**
 * Whether an answer refuses the request, as the revision says to, for a capability the client did not declare (this
 * suite declares none): HTTP 400, error -32021, and the capabilities it needs as an object. Such a tool or prompt is
 * one the suite cannot call, not a failure; a refusal in any other form is judged as an answer.
 */
function refusedForCapability(x: CheckedExchange): boolean {
  const error = rpcErrorIn(x.body);
  const needed = isObjectLike(error?.data) ? error.data.requiredCapabilities : undefined;
  return x.status === 400 && error?.code === -32021 && isObjectLike(needed);
}

/** The objects a list of a validated result holds (none where the list is absent). */
function objectsIn(list: unknown): Json[] {
  return Array.isArray(list) ? list.filter(isObjectLike) : [];
}
