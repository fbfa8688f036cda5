/**
 * The few-shot grammar of the Fixie Agent Protocol: the order of a few-shot's lines, which JSON Schema cannot say.
 * The rules are those of the Fixie SDK's prompt validator (fixieai `utils.py`, 1.0.x), plus the doc's own
 * (`Q:` first, `A:` last).
 */
export const FEW_SHOT_RULES = {
  'first-line-query': 'the first line is the query, `Q:`',
  'query-text': 'a `Q:` line holds a query (1.0 refuses an empty one)',
  'last-line-answer': 'the last line with a pattern is the answer, `A:`',
  'reply-follows-ask':
    '`Ask Func[name]:` is immediately followed by `Func[name] says:` (and `Ask Agent[name]:` by `Agent[name] says:`)',
  'reply-names-asked': 'the reply names the function or agent that was asked',
  'reply-has-ask': 'a `says:` line comes right after the ask it answers',
  'one-exchange': 'a few-shot of an agent that is not conversational holds exactly one `Q:` … `A:` exchange',
  turns: 'in a conversational few-shot, each `Q:` is answered by an `A:` before the next `Q:`',
  'name-format': 'function and agent names are word characters only (`^\\w+$`)',
  whitespace: 'no line starts or ends with a space, tab or carriage return',
  'trailing-newline': 'the few-shot does not end with a newline',
  'embed-introduced':
    'an embed reference (`#key`) on an `Ask …:` or `A:` line names an embed an earlier line introduced',
  'registered-function': 'every `Func[name]` is a function of the agent, or a built-in `fixie_*` one',
} as const;

/** The id of a few-shot rule. */
export type FewShotRule = keyof typeof FEW_SHOT_RULES;

/** One broken rule: in which few-shot (0-based), on which line of it (1-based), and why. */
export interface FewShotIssue {
  fewShot: number;
  line: number;
  rule: FewShotRule;
  message: string;
}

/** Options of {@link validateFewShots}. */
export interface FewShotOptions {
  /** Whether the agent is conversational (several Q…A turns per few-shot). Default false. */
  conversational?: boolean;
  /** The agent's functions; when given, every `Func[name]` must be one of them or a built-in `fixie_*`. */
  functions?: Iterable<string>;
}

/** The functions every Fixie agent may call without defining them. */
export const BUILT_IN_FUNCTIONS = [
  'fixie_base_prompt',
  'fixie_local_datetime',
  'fixie_utc_datetime',
  'fixie_query_embed',
  'fixie_query_corpus',
] as const;

type Kind = 'Q' | 'A' | 'ASK_FUNC' | 'FUNC_SAYS' | 'ASK_AGENT' | 'AGENT_SAYS';

const PATTERNS: ReadonlyArray<[Kind, RegExp]> = [
  ['Q', /^Q:/],
  ['A', /^A:/],
  ['ASK_FUNC', /^Ask Func\[(\w+)\]:/],
  ['FUNC_SAYS', /^Func\[(\w+)\] says:/],
  ['ASK_AGENT', /^Ask Agent\[(\w+)\]:/],
  ['AGENT_SAYS', /^Agent\[(\w+)\] says:/],
];
// Lines that look like a call or a reply but whose name is not a word.
const MALFORMED_NAME = /^(?:Ask (?:Func|Agent)\[([^\]]*)\]:|(?:Func|Agent)\[([^\]]*)\] says:)/;
/**
 * The embed keys a line refers to: `#key` after an odd number of `#` (a `##` pair is an escaped literal `#`), the key
 * being the word characters that follow the run. One pass over the line, so a handshake from a remote agent costs
 * time in its length whatever it holds (a regex with a lookbehind and a repeated group backtracks over runs of `#`).
 */
export function embedReferences(text: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== HASH) {
      i++;
      continue;
    }
    const runStart = i;
    while (text.charCodeAt(i) === HASH) i++;
    let end = i;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    if ((i - runStart) % 2 === 1 && end > i) keys.push(text.slice(i, end));
    i = end;
  }
  return keys;
}

const HASH = 0x23;

/** `\w` of a JavaScript regex without the `u` flag: ASCII letters, digits and `_`. */
function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f
  );
}

interface Patterned {
  kind: Kind;
  name?: string;
  line: number;
  text: string;
}

/** Checks one few-shot; `index` is its place in the agent's list, used in the issues. */
export function validateFewShot(fewShot: string, index = 0, options: FewShotOptions = {}): FewShotIssue[] {
  const issues: FewShotIssue[] = [];
  const add = (line: number, rule: FewShotRule, message: string) =>
    issues.push({ fewShot: index, line, rule, message });
  const functions = options.functions ? new Set(options.functions) : undefined;
  const lines = fewShot.split('\n');
  if (fewShot.endsWith('\n')) add(lines.length - 1, 'trailing-newline', 'ends with a newline');
  const body = fewShot.endsWith('\n') ? lines.slice(0, -1) : lines;

  const patterned: Patterned[] = [];
  body.forEach((text, i) => {
    const line = i + 1;
    if (/^[ \t\r]|[ \t\r]$/.test(text))
      add(line, 'whitespace', 'starts or ends with a space, tab or carriage return');
    const malformed = MALFORMED_NAME.exec(text);
    const badName = malformed?.[1] ?? malformed?.[2];
    if (badName !== undefined && !/^\w+$/.test(badName))
      add(line, 'name-format', `"${badName}" is not a name (word characters only)`);
    for (const [kind, re] of PATTERNS) {
      const m = re.exec(text);
      if (!m) continue;
      patterned.push({ kind, line, text, ...(m[1] ? { name: m[1] } : {}) });
      break;
    }
  });

  if (!/^Q:/.test(body[0] ?? '')) add(1, 'first-line-query', 'the first line must start with "Q:"');
  const last = patterned.at(-1);
  if (last && last.kind !== 'A')
    add(last.line, 'last-line-answer', 'the last line with a pattern must start with "A:"');
  if (!last) add(1, 'last-line-answer', 'there is no "A:" line');

  const introduced = new Set<string>();
  patterned.forEach((p, i) => {
    if (p.kind === 'Q' && p.text.slice(2).trim() === '') add(p.line, 'query-text', 'the query is empty');
    if ((p.kind === 'ASK_FUNC' || p.kind === 'ASK_AGENT') && p.name) {
      const reply = p.kind === 'ASK_FUNC' ? 'FUNC_SAYS' : 'AGENT_SAYS';
      const who = p.kind === 'ASK_FUNC' ? 'Func' : 'Agent';
      const next = patterned[i + 1];
      if (!next || next.kind !== reply || next.line !== p.line + 1) {
        add(p.line, 'reply-follows-ask', `must be followed on the next line by "${who}[${p.name}] says:"`);
      } else if (next.name !== p.name) {
        add(next.line, 'reply-names-asked', `answers ${who}[${next.name}], but ${who}[${p.name}] was asked`);
      }
    }
    if (p.kind === 'FUNC_SAYS' || p.kind === 'AGENT_SAYS') {
      const ask = p.kind === 'FUNC_SAYS' ? 'ASK_FUNC' : 'ASK_AGENT';
      const before = patterned[i - 1];
      if (!before || before.kind !== ask || before.line !== p.line - 1)
        add(p.line, 'reply-has-ask', 'a reply must come on the line right after its ask');
    }
    if (functions && p.kind === 'ASK_FUNC' && p.name) {
      if (!functions.has(p.name) && !p.name.startsWith('fixie_'))
        add(
          p.line,
          'registered-function',
          `Func[${p.name}] is not a function of this agent (nor a built-in fixie_*)`,
        );
    }
    for (const key of embedReferences(p.text)) {
      if (p.kind === 'Q' || p.kind === 'FUNC_SAYS' || p.kind === 'AGENT_SAYS') introduced.add(key);
      else if (!introduced.has(key))
        add(
          p.line,
          'embed-introduced',
          `#${key} names no embed introduced on an earlier "Q:" or "says:" line`,
        );
    }
  });

  // The Q…A structure over the patterned lines: one exchange, or turns when conversational.
  const sequence = patterned.filter((p) => p.kind === 'Q' || p.kind === 'A');
  if (options.conversational) {
    let open = false;
    for (const p of sequence) {
      if (p.kind === 'Q' && open) add(p.line, 'turns', 'a new "Q:" before the previous one was answered');
      if (p.kind === 'A' && !open && sequence[0] !== p)
        add(p.line, 'turns', 'an "A:" that answers no open "Q:"');
      open = p.kind === 'Q';
    }
  } else {
    const queries = sequence.filter((p) => p.kind === 'Q');
    const answers = sequence.filter((p) => p.kind === 'A');
    // The second query, or else the second answer: whichever there is begins a second exchange.
    const extra = queries[1] ?? answers[1];
    if (extra)
      add(
        extra.line,
        'one-exchange',
        'a second exchange in the few-shot of an agent that is not conversational',
      );
  }
  return issues.sort((a, b) => a.line - b.line);
}

/** Checks every few-shot of an agent. */
export function validateFewShots(fewShots: readonly string[], options: FewShotOptions = {}): FewShotIssue[] {
  return fewShots.flatMap((f, i) => validateFewShot(f, i, options));
}

/**
 * Splits few-shots written as one text, as the SDK did: each line trimmed, then split before every `Q:` that follows
 * a blank line.
 */
export function splitFewShots(text: string): string[] {
  const trimmed = text
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .trim();
  return trimmed === '' ? [] : trimmed.split('\n\nQ:').map((f, i) => (i === 0 ? f : `Q:${f}`));
}

/** Formats an issue for people: `few-shot 2, line 3: … [rule]`. */
export function formatFewShotIssue(issue: FewShotIssue): string {
  return `few-shot ${issue.fewShot + 1}, line ${issue.line}: ${issue.message} [${issue.rule}]`;
}
