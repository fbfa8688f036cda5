// One byte range of an NDJSON file checked against one type: what each thread of `validate --workers N` does, the
// main thread included. Lines and items are numbered from the start of the range.
import { createReadStream } from 'node:fs';
import { describeErrors, eachNdjsonItem, type Validator } from '@agentproto/runtime/contract';
import { got } from './got.js';

/** A range of a file to check. */
export interface RangeTask {
  file: string;
  /** Byte range [start, end) of the file; both at line starts. */
  start: number;
  end: number;
  protocol: string;
  type: string;
  maxIssues: number;
}

/** What checking a range found: counts and issues, numbered within the range. */
export interface RangeResult {
  items: number;
  /** The items with at least one issue (counted past `maxIssues`). */
  invalid: number;
  lines: number;
  issues: Array<{
    line: number;
    event: number;
    pointer: string;
    message: string;
    got?: string;
    type?: string;
  }>;
  truncated: boolean;
}

/** Reads the lines of the range, parses each and checks it with `validate`, keeping at most `maxIssues` issues. */
export async function checkRange(task: RangeTask, validate: Validator): Promise<RangeResult> {
  const issues: RangeResult['issues'] = [];
  let truncated = false;
  let invalid = 0;
  const keep = (issue: RangeResult['issues'][number]) => {
    if (issues.length < task.maxIssues) issues.push(issue);
    else truncated = true;
  };
  const counts =
    task.end > task.start
      ? await eachNdjsonItem(
          createReadStream(task.file, { start: task.start, end: task.end - 1 }),
          (frame) => {
            if (!frame.ok) {
              invalid++;
              keep({ line: frame.line, event: frame.index, pointer: '', message: frame.error });
            } else if (!validate(frame.value)) {
              invalid++;
              for (const i of describeErrors(validate.errors))
                keep({
                  line: frame.line,
                  event: frame.index,
                  pointer: i.pointer,
                  message: i.message,
                  ...got(frame.value, i.pointer),
                  type: task.type,
                });
            }
          },
        )
      : { items: 0, lines: 0 };
  return { ...counts, invalid, issues, truncated };
}
