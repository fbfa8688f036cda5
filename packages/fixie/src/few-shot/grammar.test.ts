import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  embedReferences,
  FEW_SHOT_RULES,
  type FewShotRule,
  splitFewShots,
  validateFewShot,
} from './grammar.js';

const GENRAND =
  'Q: Generate a random number between 0 and 19.\nAsk Func[genrand]: 0, 19\nFunc[genrand] says: 17\nA: The random number is 17.';

const good: Array<[string, { fewShot: string; conversational?: boolean }]> = [
  ['seed > the genrand example', { fewShot: GENRAND }],
  ['no calls > a query and its answer', { fewShot: 'Q: Hi\nA: Hello!' }],
  ['reasoning lines > unpatterned lines between', { fewShot: 'Q: Hi\nI should greet back.\nA: Hello!' }],
  [
    'agents > Ask Agent and its reply',
    { fewShot: 'Q: Weather?\nAsk Agent[weather]: today\nAgent[weather] says: sunny\nA: Sunny.' },
  ],
  [
    'built-in > a fixie_ function',
    {
      fewShot: 'Q: Time?\nAsk Func[fixie_utc_datetime]: now\nFunc[fixie_utc_datetime] says: 12:00\nA: Noon.',
    },
  ],
  [
    'embeds > introduced by a reply, referred to by the answer',
    { fewShot: 'Q: A cat\nAsk Func[draw]: cat\nFunc[draw] says: #pic1\nA: Here: #pic1' },
  ],
  ['embeds > an escaped ## is not a reference', { fewShot: 'Q: Tag?\nA: Use ##hashtag' }],
  ['conversation > two turns', { fewShot: 'Q: Hi\nA: Hello\nQ: Bye\nA: Goodbye', conversational: true }],
];

// Each case breaks exactly one rule; the validator must name that rule and no other.
const bad: Array<
  [
    string,
    { fewShot: string; rule: FewShotRule; line: number; conversational?: boolean; functions?: string[] },
  ]
> = [
  ['first-line-query', { fewShot: 'Hello\nQ: Hi\nA: Hello', rule: 'first-line-query', line: 1 }],
  ['query-text', { fewShot: 'Q:\nA: Nothing to answer', rule: 'query-text', line: 1 }],
  [
    'last-line-answer',
    {
      fewShot: 'Q: Hi\nA: Hello\nAsk Func[genrand]: 1, 2\nFunc[genrand] says: 2',
      rule: 'last-line-answer',
      line: 4,
    },
  ],
  [
    'reply-follows-ask',
    { fewShot: 'Q: Hi\nAsk Func[genrand]: 1, 2\nI wait.\nA: Done', rule: 'reply-follows-ask', line: 2 },
  ],
  [
    'reply-names-asked',
    {
      fewShot: 'Q: Hi\nAsk Func[genrand]: 1, 2\nFunc[other] says: 2\nA: 2',
      rule: 'reply-names-asked',
      line: 3,
    },
  ],
  ['reply-has-ask', { fewShot: 'Q: Hi\nFunc[genrand] says: 2\nA: 2', rule: 'reply-has-ask', line: 2 }],
  [
    'reply-has-ask > agents',
    { fewShot: 'Q: Hi\nAgent[weather] says: rain\nA: Rain', rule: 'reply-has-ask', line: 2 },
  ],
  [
    'reply-follows-ask > agents',
    { fewShot: 'Q: Hi\nAsk Agent[weather]: today\nA: Rain', rule: 'reply-follows-ask', line: 2 },
  ],
  ['one-exchange', { fewShot: 'Q: Hi\nA: Hello\nQ: Bye\nA: Goodbye', rule: 'one-exchange', line: 3 }],
  ['turns', { fewShot: 'Q: Hi\nQ: Still there?\nA: Yes', rule: 'turns', line: 2, conversational: true }],
  ['name-format', { fewShot: 'Q: Hi\nAsk Func[gen-rand]: 1, 2\nA: 2', rule: 'name-format', line: 2 }],
  ['whitespace', { fewShot: 'Q: Hi\nThinking... \nA: Hello', rule: 'whitespace', line: 2 }],
  ['trailing-newline', { fewShot: 'Q: Hi\nA: Hello\n', rule: 'trailing-newline', line: 2 }],
  [
    'embed-introduced',
    {
      fewShot: 'Q: Draw\nAsk Func[draw]: #cat\nFunc[draw] says: done\nA: Done',
      rule: 'embed-introduced',
      line: 2,
    },
  ],
  ['registered-function', { fewShot: GENRAND, rule: 'registered-function', line: 2, functions: ['roll'] }],
];

describe('few-shot grammar', () => {
  it.each(good)('good > %s', (_, { fewShot, conversational }) => {
    expect(
      validateFewShot(fewShot, 0, {
        conversational: conversational ?? false,
        functions: ['genrand', 'draw'],
      }),
    ).toEqual([]);
  });

  it.each(bad)('bad > %s', (_, { fewShot, rule, line, conversational, functions }) => {
    const issues = validateFewShot(fewShot, 3, {
      conversational: conversational ?? false,
      ...(functions ? { functions } : {}),
    });
    expect(issues.map((i) => i.rule)).toEqual([rule]);
    expect(issues[0]).toMatchObject({ fewShot: 3, line });
  });

  it('coverage > every rule has a case that breaks only it', () => {
    expect(new Set(bad.map(([, c]) => c.rule))).toEqual(new Set(Object.keys(FEW_SHOT_RULES)));
  });

  it('split > one text is split before each Q: after a blank line, lines trimmed', () => {
    expect(splitFewShots('  Q: a\n  A: b\n\n  Q: c\n  A: d\n')).toEqual(['Q: a\nA: b', 'Q: c\nA: d']);
  });
});

describe('embedReferences', () => {
  const cases: Array<[string, { given: string; want: string[] }]> = [
    ['one > a key after one #', { given: 'see #pic1 here', want: ['pic1'] }],
    ['escaped > ## is a literal #', { given: 'use ##hashtag', want: [] }],
    ['odd run > ### is a literal # then a reference', { given: '###pic', want: ['pic'] }],
    ['no key > a # not followed by a word character', { given: '# #. #-x', want: [] }],
    ['several > each reference once, in order', { given: '#a, #b_2 and ##c #d', want: ['a', 'b_2', 'd'] }],
    ['word end > the key stops at the first non-word character', { given: '#key-rest #é', want: ['key'] }],
    ['adjacent > a key, then another run', { given: '#a#b', want: ['a', 'b'] }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => expect(embedReferences(given)).toEqual(want));

  it("the scanner finds what the grammar's regex reading finds, on any text", () => {
    // The reading the scanner replaced, kept here as the specification (tests never see outside input).
    const reference = (text: string) => [...text.matchAll(/(?<!#)((?:##)*)#(\w+)/g)].map((m) => m[2]);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('#', 'a', 'Z', '_', '7', ' ', '-', 'é'), maxLength: 40 }),
        (text) => {
          expect(embedReferences(text)).toEqual(reference(text));
        },
      ),
      { seed: 12, numRuns: 2000 },
    );
  });
});
