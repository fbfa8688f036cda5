// Taking apart values whose type nothing tells (parsed JSON, what a catch clause caught, a hook's answer) without
// casts: the one guard and the one reader that modules across the runtime share, so each narrows the same way.

/** Whether a value is an object (an array too) whose properties can be read by name: not null, not a primitive. */
export function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** What a thrown value says: an Error's message, else the value itself in words. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
