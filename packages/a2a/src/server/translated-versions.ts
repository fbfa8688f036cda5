// The versions serveA2a answers through a translation (src/generated/translations.ts, from the manifests'
// `translate-*.yaml`): for each, its own generated JSON-RPC and HTTP+JSON apps, whose handlers are the one handler
// set written for 1.0 wrapped in that version's codecs, and its errors in its own forms. Which app a request reaches is
// decided by the version it asks for (JSON-RPC: one endpoint for all) or by its path (each HTTP surface has its own).
import {
  type AppOptions,
  describeErrors,
  JsonRpcError,
  type Problem,
  type RequestLimits,
  type RpcHandler,
} from '@agentproto/runtime';
import {
  compilePathTemplate,
  translateOperations,
  translateRpcHandlers,
} from '@agentproto/runtime/translate';
import { Hono } from 'hono';
import { A2A_ERRORS, A2aError } from '../errors/a2a-error.js';
import { GENERATED } from '../generated/modules.js';
import { TRANSLATIONS } from '../generated/translations.js';
import { VERSIONS, type Version } from '../generated/versions.js';
import { VERSION_TRAITS, validatorOf } from '../version-data.js';

/** A version served through a translation, and its two apps. */
export interface TranslatedVersion {
  version: keyof typeof TRANSLATIONS;
  /** Its JSON-RPC endpoint, at the same path as 1.0's. */
  rpc: Hono;
  /** Its HTTP+JSON surface, and whether a request's path is one of its routes (and not 1.0's). */
  rest: Hono;
  owns(path: string): boolean;
}

/** What the apps are built with: the unchecked operations (the version is decided before), and the shared options. */
export interface TranslatedOptions {
  /** 1.0's JSON-RPC handlers, by method, that take the request message and the binding's context. */
  rpcHandlers: Readonly<Record<string, RpcHandler>>;
  /** Calls 1.0 operation `operationId` (camelCase, as the HTTP surface names it) with its request message. */
  call(
    operationId: string,
    request: Record<string, unknown>,
    input: { request: Request; signal: AbortSignal },
  ): unknown;
  /** Answers an HTTP operation the translation table leaves to the server (the cards). */
  extra: Readonly<Record<string, (input: { request: Request }) => Promise<unknown>>>;
  rpcPath: string;
  limits?: Partial<RequestLimits>;
  validateResponses?: boolean;
  onError: (error: unknown, where: string) => void;
  /** 1.0's path templates: a path both surfaces have (the well-known card) stays 1.0's. */
  ownPaths: readonly string[];
  /**
   * The refusal of a request on `version`'s own HTTP+JSON paths that asks for another version (by `A2A-Version`),
   * or undefined to serve it.
   */
  refuseVersion(request: Request, version: Version): A2aError | undefined;
}

const matcher = (templates: readonly string[]) => templates.map((t) => compilePathTemplate(t));

/** The versions served through a translation, in the manifest's order. */
const TRANSLATED_VERSIONS = VERSIONS.filter((v): v is keyof typeof TRANSLATIONS =>
  Object.hasOwn(TRANSLATIONS, v),
);

/**
 * An A2A error as 0.3's JSON-RPC says it: the same code (0.3 and 1.0 share -32001 to -32007), the message, no
 * ErrorInfo details (those are 1.0's). A 1.0 error 0.3 does not have becomes -32603 with its message.
 */
function rpcError(error: unknown): unknown {
  if (!(error instanceof A2aError)) return error;
  const code = A2A_ERRORS[error.reason].code;
  return new JsonRpcError(code >= -32007 ? code : -32603, error.message);
}

// 0.3's HTTP+JSON answers an error as `{code, message}` with the JSON-RPC code, and the status @a2a-js/sdk's 0.3
// server gives it (schemas/a2a/DECISIONS.md, the HTTP+JSON dialect).
const REST_STATUS: Readonly<Record<number, number>> = {
  [-32001]: 404,
  [-32006]: 500,
  [-32601]: 501,
  [-32603]: 500,
};

/** An A2A error as a 0.3 HTTP+JSON answer: its status and `{code, message}` body. */
class RestAnswer {
  constructor(
    readonly status: number,
    readonly body: { code: number; message: string },
  ) {}
}
/** A thrown error as a RestAnswer; an error that is not A2A's is returned as it is (the runtime answers it 500). */
function restError(error: unknown): unknown {
  const mapped = rpcError(error);
  if (!(mapped instanceof JsonRpcError)) return error;
  return new RestAnswer(REST_STATUS[mapped.code] ?? 400, { code: mapped.code, message: mapped.message });
}

/**
 * The runtime's own refusals (validation, unknown route, body too large) in the 0.3 HTTP+JSON error form. A request
 * that breaks its schema names its first fault in the message and lists them all in `data.errors` (where, pointer,
 * what is wrong), as the JSON-RPC dialect's invalid params does in its `data`.
 */
function restProblem(problem: Problem): {
  status: number;
  body: { code: number; message: string; data?: { errors: NonNullable<Problem['errors']> } };
} {
  const code =
    problem.status === 404 || problem.status === 405 ? -32601 : problem.status >= 500 ? -32603 : -32602;
  // A body that breaks its schema is 400 with -32602, as @a2a-js/sdk's 0.3 server answers it (the runtime says 422).
  const status = problem.status === 422 ? 400 : problem.status;
  const said = problem.detail ?? problem.title;
  const first = problem.errors?.[0];
  if (!problem.errors || !first) return { status, body: { code, message: said } };
  const more = problem.errors.length > 1 ? ` (and ${problem.errors.length - 1} more in data.errors)` : '';
  return {
    status,
    body: {
      code,
      message: `${said}: ${first.location} ${first.pointer || '/'} ${first.message}${more}`,
      data: { errors: problem.errors },
    },
  };
}

/** The apps of every version served through a translation. */
export function translatedVersions(options: TranslatedOptions): TranslatedVersion[] {
  const own = matcher(options.ownPaths);
  const shared: Pick<AppOptions, 'limits'> = options.limits ? { limits: options.limits } : {};
  return TRANSLATED_VERSIONS.map((version) => {
    const { translator, to } = TRANSLATIONS[version];
    const generated = GENERATED[version];
    // A request 0.3 allows that 1.0 does not (an empty `parts`, say) is refused as invalid params, naming what 1.0
    // needs: the handlers are written for 1.0 and never see it.
    const checkUp = (type: string, value: unknown) => {
      const validate = validatorOf(to, type);
      if (validate(value)) return;
      const first = describeErrors(validate.errors)[0];
      throw new JsonRpcError(
        -32602,
        `valid in A2A ${version}, but this agent answers through ${to}, which needs ${first?.pointer || '/'}: ${first?.message ?? 'a different value'}`,
      );
    };
    const rpcHandlers = translateRpcHandlers(translator, options.rpcHandlers, {
      mapError: rpcError,
      checkUp,
    });
    const rpc = generated.createA2aRpcApp(
      // sound: translateRpcHandlers makes one handler per method of this version the table maps, each taking any
      // params (it translates what the app validated against the method's schema) and answering the method's result
      // translated down (checked against its schema by `validateResults`); the app throws at construction if a method
      // of this version has no handler.
      rpcHandlers as unknown as Parameters<typeof generated.createA2aRpcApp>[0], // sound: see above
      {
        app: new Hono(),
        path: options.rpcPath,
        onError: (error, method) => options.onError(error, `${version} ${method}`),
        streamErrors: VERSION_TRAITS[version].rpcStreamErrors,
        ...shared,
        ...(options.validateResponses === undefined ? {} : { validateResults: options.validateResponses }),
      },
    );
    type Input = {
      request: Request;
      signal: AbortSignal;
      params: Record<string, string>;
      query: Record<string, unknown>;
      body: unknown;
    };
    const operations = translateOperations<Input>(
      translator,
      (operation, request, input) => options.call(operation, request, input),
      { mapError: restError, checkUp },
    );
    const handlers: Record<string, (input: Input) => Promise<unknown>> = {};
    for (const [id, run] of Object.entries({ ...operations, ...options.extra }))
      handlers[id] = async (input) => {
        try {
          return { status: 200, body: await run(input) };
        } catch (error) {
          // The translated operations map their errors already; the server's own (the cards) are mapped here.
          const answer = error instanceof RestAnswer ? error : restError(error);
          if (answer instanceof RestAnswer) return { status: answer.status, body: answer.body };
          throw error;
        }
      };
    // The path picked this version; a header that names another is VersionNotSupportedError in this version's
    // HTTP+JSON error form, with 1.0's code: only a client that knows the header sends one (DECISIONS 91).
    const restApp = new Hono().use(async (c, next) => {
      const refusal = options.refuseVersion(c.req.raw, version);
      if (!refusal) return next();
      const { code, http } = A2A_ERRORS[refusal.reason];
      return Response.json({ code, message: refusal.message }, { status: http });
    });
    // sound: one handler per operation of this version (the table's, and `extra`'s cards), each taking the input the
    // route validated and answering `{status, body}` with a body translated down or in this version's error form
    // (checked by `validateResponses`); the app throws at construction if an operation has no handler.
    const rest = generated.createA2aApp(handlers as unknown as Parameters<typeof generated.createA2aApp>[0], {
      app: restApp,
      onError: (error, operation) => options.onError(error, `${version} ${operation}`),
      errorBody: restProblem,
      ...shared,
      ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
    });
    const mine = matcher(generated.PATHS);
    return {
      version,
      rpc,
      rest,
      owns: (path) => mine.some((t) => t.match(path)) && !own.some((t) => t.match(path)),
    };
  });
}
