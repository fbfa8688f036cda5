/** The path templates of the Construct sse-items 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/ticks"] as const;
