// The parameters step of an HTTP operation: path and query parameters, spelled as the protocol takes them (a ProtoJSON
// binding's query parameters under their proto names too) and checked (and coerced, with defaults filled in) by the
// operation's validators; 400 with every issue when one is invalid.

import { clashMessage, readProtoQuery } from '../body/proto-names.js';
import { honoPath, pathAffixes } from '../http/path-template.js';
import type { OperationSpec } from '../operation-app.js';
import { problem, problemResponse } from '../problem.js';
import { pointerOf } from '../text/pointer.js';
import { check, type ValidationIssue, type Validator } from '../validation.js';
import type { Step } from './step.js';

/** Checks the path parameters into `state.params` and the query into `state.query`. */
export function checkParams<S extends { params: unknown; query: unknown }>(spec: OperationSpec): Step<S> {
  const affixes = pathAffixes(spec.path);
  const hasPathParams = honoPath(spec.path).includes(':');
  // A parameter validator that takes an empty object as it is gives the same answer every time it gets one: a path
  // without parameters, or a URL without a query, skips it. One that fills in defaults still runs.
  const noPathParams = !hasPathParams && takesEmpty(spec.pathParams);
  const noQuery = takesEmpty(spec.query);
  return (c, state) => {
    const params: Record<string, string> = hasPathParams ? { ...c.req.param() } : {};
    for (const [name, [prefix, suffix]] of affixes) {
      const value = params[name];
      if (value !== undefined) params[name] = value.slice(prefix.length, value.length - suffix.length);
    }
    if (!noPathParams) {
      spellBooleans(spec.booleans?.path, params);
      const pathIssues = decimalIssues(spec.decimals?.path, params) ?? check(spec.pathParams, params);
      if (pathIssues.length > 0)
        return problemResponse(
          problem(400, 'invalid-path', 'a path parameter is invalid', { location: 'path', list: pathIssues }),
        );
    }
    const hasQuery = c.req.url.includes('?');
    const query: Record<string, string> = hasQuery ? { ...c.req.query() } : {};
    if (hasQuery && spec.queryProtoNames) {
      const clash = readProtoQuery(query, spec.queryProtoNames);
      if (clash) {
        const message = clashMessage(clash);
        return problemResponse(
          problem(400, 'invalid-query', `the query ${message}`, {
            location: 'query',
            list: [{ pointer: clash.pointer, message, keyword: 'protoJson' }],
          }),
        );
      }
    }
    if (hasQuery || !noQuery) {
      spellBooleans(spec.booleans?.query, query);
      const queryIssues = decimalIssues(spec.decimals?.query, query) ?? check(spec.query, query);
      if (queryIssues.length > 0)
        return problemResponse(
          problem(400, 'invalid-query', 'a query parameter is invalid', {
            location: 'query',
            list: queryIssues,
          }),
        );
    }
    state.params = params;
    state.query = query;
    return undefined;
  };
}

/** Whether a parameter validator takes an empty object as it is (valid, and no default filled in). */
function takesEmpty(validate: Validator): boolean {
  const probe = {};
  return validate(probe) === true && Object.keys(probe).length === 0;
}

// The spellings a boolean parameter takes, and what each means: JSON's, Python's (`str(True)`), and bits.
const BOOLEAN_SPELLINGS: Readonly<Record<string, 'true' | 'false'>> = {
  true: 'true',
  True: 'true',
  '1': 'true',
  false: 'false',
  False: 'false',
  '0': 'false',
};

/** Rewrites each boolean parameter written in a spelling it takes to `true` or `false`, for the validator to coerce. */
function spellBooleans(names: readonly string[] | undefined, values: Record<string, string>): void {
  for (const name of names ?? []) {
    const text = values[name];
    const spelled =
      text !== undefined && Object.hasOwn(BOOLEAN_SPELLINGS, text) ? BOOLEAN_SPELLINGS[text] : undefined;
    if (spelled !== undefined) values[name] = spelled;
  }
}

const DECIMAL = { integer: /^-?(?:0|[1-9]\d*)$/, number: /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/ };

/** Issues for number and integer parameters not written as canonical decimals; undefined when all are. */
function decimalIssues(
  decimals: Readonly<Record<string, 'integer' | 'number'>> | undefined,
  values: Record<string, string>,
): ValidationIssue[] | undefined {
  if (!decimals) return undefined;
  const issues: ValidationIssue[] = [];
  for (const [name, kind] of Object.entries(decimals)) {
    const text = values[name];
    if (text === undefined || DECIMAL[kind].test(text)) continue;
    issues.push({
      pointer: pointerOf([name]),
      message: kind === 'integer' ? 'must be a decimal integer' : 'must be a decimal number',
      keyword: 'type',
    });
  }
  return issues.length > 0 ? issues : undefined;
}
