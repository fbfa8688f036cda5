// A session the inspector saved (`*.session.ndjson`): a header line, then one record per message. Each record is
// checked as the inspector checked it live (SessionChecker): its message against the type it names, stream items
// through the protocol's stream check, whose end rules run where the agent closed the stream.

import type { ProtocolBinding } from '@agentproto/runtime/contract';
import { eachNdjsonItem, type ParsedFrame } from '@agentproto/runtime/contract';
import { isSessionHeader, SessionChecker, type SessionRecord } from '../inspect/session.js';
import { got } from './got.js';
import type { InputIssue, ItemCount } from './reporters.js';

const DIRECTIONS = new Set(['request', 'response', 'event', 'end']);

/**
 * Whether a line is a record the checker can take: an exchange number and a known direction, what it dispatches on.
 * The checker reads the other fields only as they are (a message, a type to look up, flags), so they need no check.
 */
function isSessionRecord(value: unknown): value is SessionRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    'exchange' in value &&
    Number.isInteger(value.exchange) &&
    'direction' in value &&
    typeof value.direction === 'string' &&
    DIRECTIONS.has(value.direction)
  );
}

/**
 * Checks a session file; returns how many records it read (the header aside) and how many of them have an issue.
 * Pointers are into each line (`/message/...`).
 */
export async function validateSession(
  binding: ProtocolBinding,
  chunks: AsyncIterable<string | Uint8Array>,
  found: (issue: InputIssue) => void,
): Promise<ItemCount> {
  const checker = new SessionChecker(binding);
  let records = 0;
  let invalid = 0;
  const onFrame = (frame: ParsedFrame) => {
    const at = { line: frame.line, event: frame.index };
    if (!frame.ok) {
      // A line that is not JSON is a record that cannot be read (or a header that cannot).
      if (frame.index > 1) {
        records++;
        invalid++;
      }
      found({ ...at, pointer: '', message: frame.error });
      return;
    }
    if (frame.index === 1) {
      if (!isSessionHeader(frame.value))
        found({
          ...at,
          pointer: '',
          message: 'a session starts with its header line ({"agentprotoSession":1,…})',
        });
      else if (frame.value.protocol !== binding.protocol || frame.value.version !== binding.version)
        found({
          ...at,
          pointer: '/protocol',
          message: `the session was recorded with ${frame.value.protocol}@${frame.value.version}, not ${binding.protocol}@${binding.version}`,
        });
      return;
    }
    records++;
    const record = frame.value;
    if (!isSessionRecord(record)) {
      invalid++;
      found({
        ...at,
        pointer: '',
        message: 'a record has an exchange number and a direction (request, response, event, end)',
      });
      return;
    }
    const issues = checker.push(record);
    if (issues.length > 0) invalid++;
    for (const issue of issues) {
      const pointer =
        issue.index === undefined || record.direction !== 'end' ? `/message${issue.pointer}` : '';
      // A message's issue names the type it was checked as; a stream's names the stream rule.
      found({
        ...at,
        pointer,
        message: issue.message,
        ...(pointer === '' ? {} : got(record, pointer)),
        ...(record.type && issue.index === undefined ? { type: record.type } : { rule: issue.rule }),
      });
    }
  };
  await eachNdjsonItem(chunks, onFrame);
  return { items: records, invalid };
}
