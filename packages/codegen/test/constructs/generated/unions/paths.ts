/** The path templates of the Construct unions 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/shapes"] as const;
