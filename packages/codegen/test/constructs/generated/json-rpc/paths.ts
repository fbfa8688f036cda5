/** The path templates of the Construct json-rpc 1 HTTP surface, relative to the agent's root. */
export const PATHS = [] as const;
