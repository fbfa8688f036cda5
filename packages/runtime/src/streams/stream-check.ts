/** One problem found in a stream: which item, where in it, what is wrong, and which rule says so. */
export interface StreamIssue {
  /** 1-based position of the item in the stream; for a problem with the stream as a whole, the count of items read. */
  index: number;
  /** 1-based line of the input where the item starts, when the stream was read from text. */
  line?: number;
  /** JSON pointer into the item ('' for the item itself). */
  pointer: string;
  message: string;
  /** `schema` for a broken item schema (with the type it was checked as), else the id of the protocol rule. */
  rule: string;
  /** The type the item was checked as. */
  type?: string;
}

/** Where an item sits in the stream. */
export interface ItemPosition {
  index: number;
  line?: number;
}

/**
 * A protocol's check of a whole stream, fed one item at a time. Implementations keep a bounded amount of state, so
 * a stream of any length is checked in flat memory.
 */
export interface StreamCheck {
  /** Checks one item (already parsed from JSON) against its schema and the protocol's ordering rules. */
  push(item: unknown, at: ItemPosition): StreamIssue[];
  /** Checks what the end of the stream requires (a terminal event, nothing left open). */
  end(): StreamIssue[];
}

/** An issue at a position of the stream; `type` names the schema type for `schema` issues. */
export function streamIssue(
  at: ItemPosition,
  rule: string,
  pointer: string,
  message: string,
  type?: string,
): StreamIssue {
  return {
    index: at.index,
    ...(at.line === undefined ? {} : { line: at.line }),
    pointer,
    message,
    rule,
    ...(type ? { type } : {}),
  };
}
