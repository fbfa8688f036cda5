// JSON bytes to a value under the same rules readBody applies to a JSON body (UTF-8, the nesting depth, no lone
// surrogate), for a binding that reads a body itself and wants the value once. A body that breaks a rule gives no value;
// the binding then lets readBody's path refuse it, so every refusal keeps one wording.
import { findShapeProblem, jsonTextIsPlain } from './value-shape.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of `bytes`, or undefined when they are not UTF-8 JSON within `maxDepth` levels without lone surrogates. */
export function parseJsonWithin(bytes: Uint8Array, maxDepth: number): { value: unknown } | undefined {
  let value: unknown;
  let text: string;
  try {
    text = utf8.decode(bytes);
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!jsonTextIsPlain(text, maxDepth) && findShapeProblem(value, maxDepth)) return undefined;
  return { value };
}
