/** The path templates of the Construct multipart 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/files"] as const;
