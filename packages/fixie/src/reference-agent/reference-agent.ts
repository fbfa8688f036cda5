// The Fixie reference agents (fixieai 1.0): the seed's code-shot agent with its `genrand` and `roll` functions and a
// corpus, and a standalone agent that streams its answer.
import type { Hono } from 'hono';
import type { TokenVerifier } from '../agent/auth.js';
import { createCodeShotAgent, createStandaloneAgent } from '../agent/create-agent.js';

/** The seed's few-shot, and one for the second function. */
export const FEW_SHOTS = [
  'Q: Generate a random number between 0 and 19.\nAsk Func[genrand]: 0, 19\nFunc[genrand] says: 17\nA: The random number is 17.',
  'Q: Roll two six-sided dice.\nAsk Func[roll]: 2d6\nFunc[roll] says: 3, 5\nA: You rolled 3 and 5.',
];

/** Options of the reference agents. */
export interface ReferenceOptions {
  /** The random source, in [0, 1); tests pin it. */
  random?: () => number;
  /** Check bearer tokens with this verifier. */
  auth?: TokenVerifier;
}

/**
 * The reference code-shot agent: the seed's `genrand` (a random integer between two bounds, "0, 19"), `roll` (dice
 * in `NdM` notation), and a corpus function `faq` serving two pages of documents.
 */
export function createReferenceAgent(options: ReferenceOptions = {}): Hono {
  const random = options.random ?? Math.random;
  return createCodeShotAgent({
    basePrompt: 'I am a simple agent that generates random numbers and rolls dice.',
    fewShots: FEW_SHOTS,
    functions: {
      genrand: ({ message }) => {
        const [low, high] = message.text.split(',').map((s) => Number.parseInt(s.trim(), 10));
        if (low === undefined || high === undefined || Number.isNaN(low) || Number.isNaN(high) || high < low)
          return { text: 'I need two bounds, low first: "0, 19".' };
        return String(low + Math.floor(random() * (high - low + 1)));
      },
      roll: ({ message }) => {
        // What the model wrote is input like any other: dice it cannot read get an answer, not an error.
        const m = /^(\d{1,2})d(\d{1,3})$/.exec(message.text.trim());
        const [count, sides] = [Number(m?.[1]), Number(m?.[2])];
        if (!m || count < 1 || sides < 2)
          return { text: 'I roll dice written NdM: 1 to 99 dice of 2 to 999 sides, as in "2d6".' };
        return Array.from({ length: count }, () => 1 + Math.floor(random() * sides)).join(', ');
      },
    },
    corpora: [{ func_name: 'faq' }],
    corpusFunctions: {
      faq: ({ page_token }) => {
        const doc = (n: number, text: string) => ({
          source_name: `faq/${n}`,
          content: Buffer.from(text).toString('base64'),
          mime_type: 'text/plain',
        });
        if (page_token === 'p2')
          return { page: { documents: [doc(2, 'Dice have six sides unless you say otherwise.')] } };
        return { page: { documents: [doc(1, 'Bounds are inclusive.')], next_page_token: 'p2' } };
      },
    },
    ...(options.auth ? { auth: options.auth } : {}),
  });
}

/** The reference standalone agent: it answers a query with a countdown, one response per line as it goes. */
export function createReferenceStandaloneAgent(options: ReferenceOptions = {}): Hono {
  return createStandaloneAgent({
    sampleQueries: ['Count down from 3'],
    async *answer({ message }, { signal }) {
      const from = Math.min(Number.parseInt(/\d+/.exec(message.text)?.[0] ?? '3', 10), 20);
      for (let n = from; n > 0 && !signal.aborted; n--) {
        yield `${n}…`;
        await new Promise((resolve) => setImmediate(resolve));
      }
      yield { text: 'Liftoff!', embeds: {} };
    },
    ...(options.auth ? { auth: options.auth } : {}),
  });
}
