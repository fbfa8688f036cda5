// `minLength` and `maxLength` count code points (JSON Schema 2020-12 validation §6.3.1), which ajv does with a loop over
// the whole string (`ucs2length`) each time either keyword is checked: on the error path, every id with a
// `minLength: 1` costs a walk over its characters. A string's code points number at most its `.length` (UTF-16 code
// units) and at least half of it, rounded up (a pair takes two units), so the count is needed only between those
// bounds: a string of at least twice the minimum less one holds `minLength` (with `minLength: 1`, any non-empty
// string), and one no longer than the maximum holds `maxLength`, without counting. The fast paths
// bound it the same way (fast-path/string.ts). Outside the bounds ajv's own code runs: the same verdict, the same
// error.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import type { CodeKeywordDefinition } from 'ajv/dist/types/index.js';

/** Replaces ajv's `minLength` and `maxLength` in `ajv` by the same keywords, counting code points only when needed. */
export function boundLengthCounts(ajv: Ajv2020): void {
  // ajv defines both keywords with one definition; it is read through either of them.
  const rule = ajv.getKeyword('minLength');
  if (typeof rule !== 'object' || !('code' in rule))
    throw new Error("boundLengthCounts: ajv's minLength is not a code keyword");
  const original = rule.code;
  const definition: CodeKeywordDefinition = {
    ...rule,
    keyword: ['maxLength', 'minLength'],
    // Their place among the string keywords, so errors come in ajv's order.
    before: 'pattern',
    code: (cxt) => {
      const { keyword, data, schema, gen, it } = cxt;
      // A limit from `$data`, or lengths counted in code units anyway: ajv's code as it is.
      if (cxt.$data || typeof schema !== 'number' || it.opts.unicode === false) {
        original(cxt);
        return;
      }
      const bound =
        keyword === 'minLength' ? _`${data}.length < ${2 * schema - 1}` : _`${data}.length > ${schema}`;
      gen.if(bound, () => original(cxt));
    },
  };
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword(definition);
}
