/** The path templates of the Construct allof-chain 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/people"] as const;
