/** The path templates of the Construct nullable 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/notes/{id}"] as const;
