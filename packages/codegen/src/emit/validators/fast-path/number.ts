// Number bounds: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, on numbers only.
import { type Code, joinCode, ts } from '../../code.js';
import { guard, type Site, Unsupported } from './support.js';

const BOUNDS: readonly [keyword: string, holds: Code][] = [
  ['minimum', ts`>=`],
  ['maximum', ts`<=`],
  ['exclusiveMinimum', ts`>`],
  ['exclusiveMaximum', ts`<`],
];

/** One check failing a number outside any bound. */
export function emitNumber({ schema, data, known }: Site): Code[] {
  const broken: Code[] = [];
  for (const [keyword, holds] of BOUNDS) {
    const limit = schema[keyword];
    if (limit === undefined) continue;
    if (typeof limit !== 'number') throw new Unsupported(`${keyword} that is not a number`);
    // ajv's form: the bound fails when the comparison is false, so NaN fails too.
    broken.push(ts`!(${data} ${holds} ${limit})`);
  }
  if (broken.length === 0) return [];
  return [
    ts`if(${guard(known, 'number', ts`typeof ${data} == "number"`)}(${joinCode(broken, ' || ')})) return false;`,
  ];
}
