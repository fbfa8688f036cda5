/**
 * `@agentproto/runtime/locate`: the locating parsers (JSON and YAML text to a value plus a pointer-to-line map), in
 * their own entry because they load a JSON parser and the YAML library that most callers never need.
 */
export {
  escapePointerToken,
  JsonSyntaxError,
  type Locator,
  parseJsonWithLocator,
  parsePointer,
  parseYamlWithLocator,
} from './text/locate.js';
