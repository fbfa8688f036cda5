// Loaded with `node --import`: records the URL of every module the process resolves, one per line, in the file that
// RECORD_IMPORTS names. Module hooks run on their own thread, so they append to the file rather than share memory.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(process.env.RECORD_IMPORTS ?? '/dev/null')}, resolved.url + '\\n');
  return resolved;
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
