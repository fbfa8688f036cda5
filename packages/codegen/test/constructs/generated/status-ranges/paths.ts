/** The path templates of the Construct status-ranges 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/orders"] as const;
