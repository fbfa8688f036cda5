// The locating parsers: JSON (momoa) and YAML (yaml) parsed into values together with a map from JSON pointers to
// source lines, so that every diagnostic can name the line of the value it is about. The schema loader and
// `agentproto validate` (for YAML documents) share them.
import {
  type AnyNode,
  type ElementNode,
  evaluate,
  type MemberNode,
  parse as parseJson,
} from '@humanwhocodes/momoa';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { errorMessage, isObjectLike } from '../unknown-values.js';
import { parsePointer } from './pointer.js';

export { escapePointerToken, parsePointer } from './pointer.js';

/** Maps a JSON pointer to the 1-based line where that value starts in the source text. */
export type Locator = (pointer: string) => number | undefined;

/** Text that is not JSON, with where the parser stopped. */
export class JsonSyntaxError extends SyntaxError {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.line = line;
    this.column = column;
  }
}

/**
 * Parses JSON text with locations; throws a JsonSyntaxError naming line and column when the text is not JSON, and
 * a RangeError when it nests deeper than the parser's stack.
 */
export function parseJsonWithLocator(text: string): { value: unknown; locate: Locator } {
  let doc: ReturnType<typeof parseJson>;
  try {
    doc = parseJson(text, { mode: 'json' });
  } catch (error) {
    // The parser recurses: a document nested deeper than the stack allows is too deep, not malformed (its RangeError
    // goes on as it is, so a caller can say which).
    if (error instanceof RangeError) throw error;
    // The parser's errors carry the line and column where it stopped.
    const { line, column }: Record<string, unknown> = isObjectLike(error) ? error : {};
    throw new JsonSyntaxError(
      errorMessage(error).replace(/ \(\d+:\d+\)$/, ''),
      typeof line === 'number' ? line : 1,
      typeof column === 'number' ? column : 1,
    );
  }
  const locate: Locator = (pointer) => {
    let node: AnyNode = doc.body;
    let line = node.loc.start.line;
    for (const token of parsePointer(pointer)) {
      if (node.type === 'Object') {
        const member: MemberNode | undefined = node.members.find(
          (m) => m.name.type === 'String' && m.name.value === token,
        );
        if (!member) return line;
        node = member.value;
      } else if (node.type === 'Array') {
        const element: ElementNode | undefined = node.elements[Number(token)];
        if (!element) return line;
        node = element.value;
      } else {
        return line;
      }
      line = node.loc.start.line;
    }
    return line;
  };
  return { value: evaluate(doc.body), locate };
}

/** Parses YAML text with locations; throws an Error naming line and column when the text is not YAML. */
export function parseYamlWithLocator(text: string): { value: unknown; locate: Locator } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  const first = doc.errors[0];
  if (first) throw new Error(first.message);
  const locate: Locator = (pointer) => {
    let node: unknown = doc.contents;
    let offset = rangeStart(node) ?? 0;
    for (const token of parsePointer(pointer)) {
      if (isMap(node)) node = node.get(token, true);
      else if (isSeq(node)) node = node.get(Number(token), true);
      else break;
      const start = rangeStart(node);
      if (start === undefined) break;
      offset = start;
    }
    return lineCounter.linePos(offset).line;
  };
  return { value: doc.toJS(), locate };
}

function rangeStart(node: unknown): number | undefined {
  if (isMap(node) || isSeq(node) || isScalar(node)) return node.range?.[0];
  return undefined;
}
