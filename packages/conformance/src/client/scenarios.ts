// Client scenarios are data: `schemas/<id>/<version>/client-scenarios.json` says what the scripted agent answers and
// what a client must do, per scenario (the file's shape: client-scenarios.schema.json, beside this module). Loading
// checks the file against that shape and against the version's surface: every answer names an operation or method the
// version has, and every answer the scripted agent sends validates against its declared type, unless the scenario says
// why it is deliberately off the schema (an unknown event a client must ignore). The requirements each header rule
// and scenario covers (`covers`) must be ids of the version's client-requirements.yaml, when it has one.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  describeErrors,
  type Level,
  type ProtocolBinding,
  type Surface,
  type SurfaceContent,
} from '@agentproto/runtime/contract';
import { isObject } from '../kit/is-object.js';
import { messageOf } from '../kit/message-of.js';
import { ConformanceUsageError } from '../kit/usage-error.js';

/** The name of a version's client-scenario file, in its schema folder. */
export const CLIENT_SCENARIOS_FILE = 'client-scenarios.json';

/**
 * The client requirement the `<prefix>.client.requests` check covers (every request is an operation or method of
 * the version and validates): every version's client-requirements.yaml lists it.
 */
export const CLIENT_REQUESTS_REQUIREMENT = 'client.requests';

/** A header every request (or the requests of some operations) must carry. */
export interface HeaderRule {
  name: string;
  /** The value it must have exactly. */
  equals?: string;
  /** Texts its value must contain (an Accept header listing two media types). */
  includes?: readonly string[];
  /** Operations or methods it applies to (default: every request). */
  only?: readonly string[];
  /** Operations or methods it does not apply to (the request that learns the version). */
  except?: readonly string[];
  level: Level;
  ref: string;
  /** The ids of the requirements (the version's client-requirements.yaml) its check tests. */
  covers?: readonly string[];
}

/** One answer of the scripted agent. `{{baseUrl}}` in a string and `"{{request.id}}"` as a value are filled in. */
export interface ScriptedAnswer {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Readonly<Record<string, string>>;
  /** An HTTP operation's JSON body. */
  body?: unknown;
  /** A JSON-RPC result, sent in a response with the request's id. */
  result?: unknown;
  /** A JSON-RPC error, sent in a response with the request's id. */
  error?: { code: number; message: string; data?: unknown };
  /** An event stream: each event a stream item (a JSON-RPC method's: wrapped as a result, unless `raw`). */
  events?: readonly unknown[];
  /** Events are sent as they are (whole JSON-RPC messages), not wrapped as results. */
  raw?: boolean;
  /** How the stream ends: closed by the agent (default), or cut (the connection reset, no final chunk). */
  end?: 'close' | 'reset';
  /** Why this answer is deliberately off the schema (and which sentence says the client must tolerate it). */
  offSchema?: string;
}

/** What a client must do in a scenario. */
export interface ScenarioExpectation {
  /**
   * The operations or methods the client must call, in this order (others may come between); `a|b` accepts either
   * (the same call over two bindings).
   */
  sequence?: readonly string[];
  /** The first step of `sequence` must be the client's first request. */
  startsWith?: boolean;
  /**
   * How the client must end: `success` exits 0; `error` exits non-zero, or exits 0 having reported the error (its
   * output contains one of `reports`); `any` only has to end within the timeout.
   */
  outcome: 'success' | 'error' | 'any';
  reports?: readonly string[];
}

/** One scenario. */
export interface ClientScenario {
  /** Its name, as AGENTPROTO_SCENARIO gives it to the client. */
  id: string;
  title: string;
  /** What the client is asked to do, for the author of a client under test. */
  client: string;
  level: Level;
  ref: string;
  /** The ids of the requirements (the version's client-requirements.yaml) its check tests. */
  covers?: readonly string[];
  /** Answers replacing the file's, by operation or method. */
  answers?: Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>;
  expect: ScenarioExpectation;
}

/** A version's client scenarios. */
export interface ClientScenarioFile {
  /** The prefix of the checks' ids (the server suite's, such as the one of `<prefix>.wire.schemas`). */
  checkPrefix: string;
  headers?: readonly HeaderRule[];
  /** The answers of every scenario, by operation or method: the scenarios override some. */
  answers: Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>;
  scenarios: readonly ClientScenario[];
}

/**
 * Where a version's client scenarios are: in a checkout, the source schema folder (`schemas/<id>/<version>/`, two
 * levels above the packages); in an installed package, its published `schemas/<version>/`.
 */
export function clientScenariosPath(binding: ProtocolBinding): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, '../../../../schemas', binding.protocol, binding.version, CLIENT_SCENARIOS_FILE),
  ];
  try {
    const manifest = import.meta.resolve(`${binding.package}/package.json`);
    candidates.push(
      path.join(path.dirname(fileURLToPath(manifest)), 'schemas', binding.version, CLIENT_SCENARIOS_FILE),
    );
  } catch {
    // Not installed beside the kit: only the checkout can have the file.
  }
  return candidates.find((file) => existsSync(file));
}

/** Reads and checks a version's client scenarios; a usage error says what is wrong and where. */
export async function loadClientScenarios(binding: ProtocolBinding): Promise<ClientScenarioFile> {
  const file = clientScenariosPath(binding);
  if (!file)
    throw new ConformanceUsageError(
      `${binding.protocol}@${binding.version} has no client scenarios yet (${CLIENT_SCENARIOS_FILE})`,
    );
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConformanceUsageError(`${file}: not JSON: ${messageOf(error)}`);
  }
  return acceptScenarioFile(value, binding, file);
}

/**
 * Checks client scenarios given as a value (read from a file, or written in memory) against the file's shape and the
 * version; a usage error names `where` and lists the problems.
 */
export async function acceptScenarioFile(
  value: unknown,
  binding: ProtocolBinding,
  where: string,
): Promise<ClientScenarioFile> {
  const surface = binding.surface ? await binding.surface() : undefined;
  const problems = checkScenarioFile(value, binding, surface);
  if (problems.length > 0)
    throw new ConformanceUsageError(`${where}: not a client-scenario file:\n  ${problems.join('\n  ')}`);
  // sound: checkScenarioFile found no problem against the ClientScenarioFile shape.
  return value as ClientScenarioFile;
}

const LEVELS = ['MUST', 'SHOULD', 'MAY'];
const OUTCOMES = ['success', 'error', 'any'];

/**
 * The problems of a client-scenario file, each with its JSON pointer, what was expected and the value: the shape of
 * client-scenarios.schema.json, then the answers against the version's surface and schemas.
 */
export function checkScenarioFile(
  value: unknown,
  binding: ProtocolBinding,
  surface: Surface | undefined,
): string[] {
  const out: string[] = [];
  const bad = (pointer: string, expected: string, got: unknown) =>
    out.push(`${pointer}: expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}`);
  if (!isObject(value)) return [`(file): expected an object, got ${JSON.stringify(value)}`];
  if (typeof value.checkPrefix !== 'string' || !/^[a-z][a-z0-9-]*$/.test(value.checkPrefix))
    bad('/checkPrefix', 'a lower-case id', value.checkPrefix);
  if (value.headers !== undefined) {
    if (!Array.isArray(value.headers)) bad('/headers', 'an array', value.headers);
    else
      value.headers.forEach((h: unknown, i: number) => {
        const at = `/headers/${i}`;
        if (!isObject(h)) {
          bad(at, 'an object', h);
          return;
        }
        if (typeof h.name !== 'string' || h.name === '') bad(`${at}/name`, 'a header name', h.name);
        if (h.equals !== undefined && typeof h.equals !== 'string') bad(`${at}/equals`, 'a string', h.equals);
        for (const key of ['includes', 'only', 'except'])
          if (h[key] !== undefined && !strings(h[key])) bad(`${at}/${key}`, 'an array of strings', h[key]);
        levelAndRef(h, at, bad);
        checkCovers(h.covers, at, binding, bad);
      });
  }
  const names = surfaceNames(surface);
  checkAnswers(value.answers, '/answers', binding, surface, names, out, bad);
  if (!Array.isArray(value.scenarios) || value.scenarios.length === 0)
    bad('/scenarios', 'a non-empty array', value.scenarios);
  else {
    const seen = new Set<string>();
    value.scenarios.forEach((s: unknown, i: number) => {
      const at = `/scenarios/${i}`;
      if (!isObject(s)) {
        bad(at, 'an object', s);
        return;
      }
      if (typeof s.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(s.id))
        bad(`${at}/id`, 'a kebab-case name', s.id);
      else if (seen.has(s.id)) bad(`${at}/id`, 'a name no other scenario has', s.id);
      else seen.add(s.id);
      for (const key of ['title', 'client'])
        if (typeof s[key] !== 'string' || s[key] === '') bad(`${at}/${key}`, 'a text', s[key]);
      levelAndRef(s, at, bad);
      checkCovers(s.covers, at, binding, bad);
      if (s.answers !== undefined)
        checkAnswers(s.answers, `${at}/answers`, binding, surface, names, out, bad);
      const e = s.expect;
      if (!isObject(e)) {
        bad(`${at}/expect`, 'an object', e);
        return;
      }
      if (typeof e.outcome !== 'string' || !OUTCOMES.includes(e.outcome))
        bad(`${at}/expect/outcome`, OUTCOMES.join(' or '), e.outcome);
      if (e.reports !== undefined && !strings(e.reports))
        bad(`${at}/expect/reports`, 'an array of strings', e.reports);
      if (e.startsWith !== undefined && typeof e.startsWith !== 'boolean')
        bad(`${at}/expect/startsWith`, 'a boolean', e.startsWith);
      if (e.sequence !== undefined) {
        if (!strings(e.sequence)) bad(`${at}/expect/sequence`, 'an array of strings', e.sequence);
        else
          e.sequence.forEach((step, k) => {
            for (const name of step.split('|'))
              if (names && !names.has(name))
                bad(`${at}/expect/sequence/${k}`, 'operations or methods of the version', name);
          });
      }
    });
  }
  return out;
}

type Bad = (pointer: string, expected: string, got: unknown) => void;

function strings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function levelAndRef(o: Record<string, unknown>, at: string, bad: Bad): void {
  if (typeof o.level !== 'string' || !LEVELS.includes(o.level))
    bad(`${at}/level`, LEVELS.join(', '), o.level);
  if (typeof o.ref !== 'string' || o.ref === '') bad(`${at}/ref`, 'where the rule comes from', o.ref);
}

/**
 * `covers`, when given: requirement ids, each one the version's client-requirements.yaml lists (when the version has
 * that file; without it there is nothing to check the ids against).
 */
function checkCovers(covers: unknown, at: string, binding: ProtocolBinding, bad: Bad): void {
  if (covers === undefined) return;
  if (!strings(covers)) {
    bad(`${at}/covers`, 'an array of requirement ids', covers);
    return;
  }
  const known = binding.clientRequirements?.map((r) => r.id);
  covers.forEach((id, k) => {
    if (known && !known.includes(id))
      bad(
        `${at}/covers/${k}`,
        `a requirement of ${binding.protocol}@${binding.version}'s client-requirements.yaml`,
        id,
      );
  });
}

/** The operation ids and JSON-RPC method names of a surface; undefined without one (nothing to check names against). */
function surfaceNames(surface: Surface | undefined): Set<string> | undefined {
  if (!surface) return undefined;
  return new Set([
    ...surface.operations.map((o) => o.operationId),
    ...(surface.rpc?.methods.map((m) => m.name) ?? []),
  ]);
}

const ANSWER_KEYS = ['status', 'headers', 'body', 'result', 'error', 'events', 'raw', 'end', 'offSchema'];

function checkAnswers(
  answers: unknown,
  at: string,
  binding: ProtocolBinding,
  surface: Surface | undefined,
  names: Set<string> | undefined,
  out: string[],
  bad: Bad,
): void {
  if (!isObject(answers)) {
    bad(at, 'an object of answers by operation or method', answers);
    return;
  }
  for (const [name, given] of Object.entries(answers)) {
    const where = `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (names && !names.has(name)) {
      bad(where, 'an operation or method of the version', name);
      continue;
    }
    const list = Array.isArray(given) ? given : [given];
    list.forEach((a: unknown, i: number) => {
      const pointer = Array.isArray(given) ? `${where}/${i}` : where;
      if (!isObject(a)) {
        bad(pointer, 'an answer object', a);
        return;
      }
      for (const key of Object.keys(a))
        if (!ANSWER_KEYS.includes(key)) bad(`${pointer}/${key}`, `one of ${ANSWER_KEYS.join(', ')}`, key);
      if (
        a.status !== undefined &&
        (!Number.isInteger(a.status) || Number(a.status) < 100 || Number(a.status) > 599)
      )
        bad(`${pointer}/status`, 'an HTTP status', a.status);
      if (a.events !== undefined && !Array.isArray(a.events)) bad(`${pointer}/events`, 'an array', a.events);
      if (a.end !== undefined && a.end !== 'close' && a.end !== 'reset')
        bad(`${pointer}/end`, 'close or reset', a.end);
      if (a.offSchema !== undefined && (typeof a.offSchema !== 'string' || a.offSchema === ''))
        bad(`${pointer}/offSchema`, 'why the answer is off the schema', a.offSchema);
      if (
        a.error !== undefined &&
        (!isObject(a.error) || !Number.isInteger(a.error.code) || typeof a.error.message !== 'string')
      )
        bad(`${pointer}/error`, 'a JSON-RPC error ({ code, message })', a.error);
      if (surface && a.offSchema === undefined)
        out.push(...answerProblems(fill(a, PLACEHOLDER_URL, 1), name, pointer, binding, surface));
    });
  }
}

/** What the placeholders stand for while a file is checked. */
const PLACEHOLDER_URL = 'http://127.0.0.1:1';

/** An answer's messages against the types the surface declares for them. */
function answerProblems(
  answer: ScriptedAnswer,
  name: string,
  pointer: string,
  binding: ProtocolBinding,
  surface: Surface,
): string[] {
  const method = surface.rpc?.methods.find((m) => m.name === name);
  const check = (value: unknown, type: string | undefined, at: string): string[] => {
    const validate = type === undefined ? undefined : binding.validators[type];
    if (!validate || validate(value)) return [];
    return describeErrors(validate.errors).map(
      (i) => `${at}${i.pointer}: ${i.message} (${type}); say why in offSchema if it is meant`,
    );
  };
  if (method) {
    const out =
      answer.result === undefined ? [] : check(answer.result, method.resultType, `${pointer}/result`);
    if (!answer.raw)
      for (const [i, e] of (answer.events ?? []).entries())
        out.push(...check(e, method.resultType, `${pointer}/events/${i}`));
    return out;
  }
  const operation = surface.operations.find((o) => o.operationId === name);
  if (!operation) return [];
  const contents = responseContents(operation.responses, answer.status ?? 200);
  if (answer.events !== undefined) {
    const item = contents.find((c) => c.kind === 'stream')?.item?.typeName;
    return answer.events.flatMap((e, i) => check(e, item, `${pointer}/events/${i}`));
  }
  if (answer.body === undefined) return [];
  const type = contents.find((c) => c.kind === 'json')?.typeName;
  return check(answer.body, type, `${pointer}/body`);
}

/** The contents an operation declares for a status: the status's own, its range's (`4XX`), or the default. */
function responseContents(
  responses: Readonly<Record<string, readonly SurfaceContent[]>>,
  status: number,
): readonly SurfaceContent[] {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default ?? [];
}

/** An answer with its placeholders filled: `{{baseUrl}}` inside strings, `"{{request.id}}"` as a whole value. */
export function fill<T>(value: T, baseUrl: string, requestId: unknown): T {
  const visit = (v: unknown): unknown => {
    if (v === '{{request.id}}') return requestId;
    if (typeof v === 'string') return v.replaceAll('{{baseUrl}}', baseUrl.replace(/\/$/, ''));
    if (Array.isArray(v)) return v.map(visit);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  // sound: filling replaces strings by strings and the id placeholder by the id: the answer keeps its shape.
  return visit(value) as T;
}
