/** Exit codes of every agentproto command. */
export const ExitCode = {
  /** Everything checked is valid / up to date. */
  ok: 0,
  /** Something checked is invalid, or generated files are stale. */
  invalid: 1,
  /**
   * The command could not run as asked: unknown protocol or type, a missing path, a bad option, too little memory, a
   * command that works only in a checkout (`generate`, `version add`) run outside one, a port `serve` cannot listen on.
   */
  usage: 2,
} as const;

/** A problem with how the command was called; printed without a stack trace, exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The machine cannot do what was asked (an input too large for the heap, say); exits with code 2, saying why. */
export class ResourceError extends Error {
  override readonly name = 'ResourceError';
}
