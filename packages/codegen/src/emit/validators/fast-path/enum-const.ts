// `const` and `enum`: equality as ajv decides it (`===` for scalars, ajv's deep equality for objects and arrays).
import { type Code, joinCode, literal, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import type { Site } from './support.js';

/** A boolean expression: `d` equals `value`; an object or array value is a module constant compared deeply. */
function equals(cx: Compiler, d: Code, value: unknown): Code {
  if (value === null || typeof value !== 'object') return ts`${d} === ${literal(value)}`;
  cx.helper('equal');
  return ts`fastEqual(${d}, ${cx.constant('fastValue', literal(value))})`;
}

/** The checks of `const` (present, even when its value is `null`) and `enum`. */
export function emitEnumConst(cx: Compiler, { schema, data }: Site): Code[] {
  const out: Code[] = [];
  if ('const' in schema) out.push(ts`if(!(${equals(cx, data, schema.const)})) return false;`);
  if (Array.isArray(schema.enum))
    out.push(
      ts`if(!(${joinCode(
        schema.enum.map((v) => equals(cx, data, v)),
        ' || ',
      )})) return false;`,
    );
  return out;
}
