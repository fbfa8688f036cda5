// What a report says about something thrown, or a signal's reason: an Error's message, or else the value as text.
// Its own file because the runner, the session and the schema-driven checks all word such failures, and with one
// reader none of them needs to assume (cast) that what it caught is an Error.

/** The message of an Error, or any other thrown value (or abort reason) as text. */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
