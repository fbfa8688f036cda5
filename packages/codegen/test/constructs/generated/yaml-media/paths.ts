/** The path templates of the Construct yaml-media 1 HTTP surface, relative to the agent's root. */
export const PATHS = ["/", "/lines"] as const;
