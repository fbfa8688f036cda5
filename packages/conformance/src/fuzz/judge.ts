// Judges one answer of the schema-driven checks against the operation's declared responses: its status and media
// type declared, its body (or every item of its stream) valid, and the request's own rule: a valid request never answered
// 5xx, an invalid one refused with a 4xx.
import {
  describeErrors,
  excerpt,
  parseFrames,
  readFrames,
  type SurfaceContent,
  type SurfaceOperation,
  withTimeout,
} from '@agentproto/runtime/contract';
import { parse as parseYaml } from 'yaml';
import { readWithin } from '../kit/session.js';
import type { ProtocolBinding } from '../kit/types.js';
import { judgeRpc } from './judge-rpc.js';
import type { Probe } from './probe.js';

/** Which of the three checks a finding fails. */
export type FuzzCheck = 'valid' | 'invalid' | 'declared';

/** One thing wrong with an answer: the check it fails, a category (what shrinking keeps), and what was seen. */
export interface Finding {
  check: FuzzCheck;
  category: string;
  message: string;
}

/** What judging needs beyond the probe and the answer. */
export interface JudgeContext {
  binding: ProtocolBinding;
  timeoutMs: number;
  refusesInStream?: (item: unknown) => boolean;
  /** HTTP statuses besides 200 that may carry a JSON-RPC error (Suite.rpcErrorStatuses). */
  rpcErrorStatuses?: readonly number[];
  /** Told how a JSON-RPC call was answered (`result`, `error`), for the tally a passing check reports. */
  answered?: (kind: string) => void;
}

/**
 * The most items read from one streamed answer, and how long the kit waits for the next item of a valid request's
 * stream before it stops reading (a tenth of the timeout, at most this): a stream that stays open, as a subscription
 * to a task still working does, is checked as far as it went.
 */
const MAX_ITEMS = 500;
const STREAM_IDLE_MS = 1_000;

/** The declared contents of a status: the exact code, its range (`4XX`), or `default`; undefined when undeclared. */
export function declaredFor(
  operation: SurfaceOperation,
  status: number,
): readonly SurfaceContent[] | undefined {
  const r = operation.responses;
  return r[String(status)] ?? r[`${Math.floor(status / 100)}XX`] ?? r.default;
}

/** Reads and judges one answer. Never throws for what the agent sent: a broken answer is a finding. */
export async function judge(probe: Probe, response: Response, context: JudgeContext): Promise<Finding[]> {
  if (probe.operation.rpc) return judgeRpc(probe, probe.operation.rpc, response, context);
  const findings: Finding[] = [];
  const status = response.status;
  const declared = declaredFor(probe.operation, status);
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const content = declared?.find((c) => c.mediaType.toLowerCase() === mediaType);
  if (!declared)
    findings.push({
      check: 'declared',
      category: 'undeclared-status',
      message: `answered ${status}, a status the operation does not declare`,
    });
  const { items, text, bodyProblems } = await readBody(probe, response, content, context);
  if (declared && declared.length > 0 && !content && text !== '')
    findings.push({
      check: 'declared',
      category: 'undeclared-media-type',
      message: `answered ${status} as "${mediaType || '(no content-type)'}", which ${status} does not declare (${declared.map((c) => c.mediaType).join(', ')})`,
    });
  if (bodyProblems.length > 0)
    findings.push({
      check: probe.valid ? 'valid' : 'declared',
      category: 'body-mismatch',
      message: `answered ${status} with a body that breaks its schema: ${bodyProblems.slice(0, 2).join('; ')}`,
    });
  // A valid request may still be refused for what no schema says (an unknown id, an operation the agent lacks, a
  // task already finished): a 4xx is an answer; a 5xx is the agent failing.
  if (probe.valid) {
    if (status >= 500)
      findings.push({
        check: 'valid',
        category: 'server-error',
        message: `answered ${status} to a valid request: ${excerpt(text)}`,
      });
  } else if (status >= 500)
    findings.push({
      check: 'invalid',
      category: 'server-error',
      message: `answered ${status} to an invalid request instead of a 4xx: ${excerpt(text)}`,
    });
  else if (status < 400) {
    const refused = items.length > 0 && context.refusesInStream?.(items.at(-1)) === true;
    if (!refused)
      findings.push({
        check: 'invalid',
        category: 'accepted-invalid',
        message: `answered ${status}, accepting a request that breaks its schema (expected a 4xx)`,
      });
  }
  return findings;
}

/** Reads a body by its declared content: a stream item by item (bounded), else as text, then validated. */
export async function readBody(
  probe: Probe,
  response: Response,
  content: SurfaceContent | undefined,
  context: JudgeContext,
): Promise<{ items: unknown[]; text: string; bodyProblems: string[]; value?: unknown }> {
  const bodyProblems: string[] = [];
  const items: unknown[] = [];
  if (content?.kind === 'stream' && content.item && response.body) {
    // The protocol's stream check judges the whole stream (each item's type and the order rules, a stream that ends
    // without its terminal item included); a binding without one has each item checked against its declared type.
    const check = context.binding.streamCheck?.();
    const validate =
      !check && content.item.typeName ? context.binding.validators[content.item.typeName] : undefined;
    let open = false;
    // A valid request's stream is read until it pauses; an invalid one's until the timeout, since a protocol may
    // refuse inside the stream, and the refusal may come after the agent has thought for a while.
    const idle = probe.valid ? Math.min(context.timeoutMs / 10, STREAM_IDLE_MS) : context.timeoutMs;
    try {
      for await (const frame of parseFrames(
        readFrames(readWithin(response.body, idle, 'stream'), content.item.framing),
      )) {
        if (!frame.ok) {
          bodyProblems.push(`item ${frame.index}: ${frame.error}`);
          break;
        }
        items.push(frame.value);
        if (check)
          bodyProblems.push(
            ...check
              .push(frame.value, { index: frame.index, line: frame.line })
              .map((i) => `item ${i.index}: ${i.pointer || '(item)'}: ${i.message} [${i.rule}]`),
          );
        else if (validate && !validate(frame.value))
          bodyProblems.push(
            ...describeErrors(validate.errors).map(
              (i) => `item ${frame.index}: ${i.pointer || '(item)'}: ${i.message}`,
            ),
          );
        if (items.length >= MAX_ITEMS) {
          open = true;
          break;
        }
      }
    } catch {
      // A stream still open after the idle wait: what arrived was checked; an agent may stream for long.
      open = true;
    }
    if (check && !open && bodyProblems.length === 0)
      bodyProblems.push(...check.end().map((i) => `end: ${i.message} [${i.rule}]`));
    return { items, text: items.length > 0 ? '(stream)' : '', bodyProblems };
  }
  let text = '';
  try {
    text = await withTimeout(response.text(), context.timeoutMs, () => new Error('timeout'));
  } catch {
    return { items, text: '', bodyProblems: [`the body did not arrive within ${context.timeoutMs} ms`] };
  }
  if (!content || text === '' || (content.kind !== 'json' && content.kind !== 'yaml'))
    return { items, text, bodyProblems };
  let value: unknown;
  try {
    value = content.kind === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch {
    return { items, text, bodyProblems: [`it is not ${content.kind === 'yaml' ? 'YAML' : 'JSON'}`] };
  }
  const validate = content.typeName ? context.binding.validators[content.typeName] : undefined;
  if (validate && !validate(value))
    bodyProblems.push(
      ...describeErrors(validate.errors).map(
        (i) => `${i.pointer || '(body)'}: ${i.message} (${content.typeName})`,
      ),
    );
  return { items, text, bodyProblems, value };
}
