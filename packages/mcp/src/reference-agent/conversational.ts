// The reference server's tools and prompts that talk to the client while they work: progress, log messages, and
// questions (a model's completion, the user's input, the client's roots). Each is written once: the revision decides
// whether a question travels on the answer's stream or as an `input_required` round (src/server/rpc-handlers.ts).
// Names and shapes are those the official conformance suite's server scenarios ask for.
import type { CallContext, InputRequest, PromptDefinition, ToolDefinition } from '../server/definition.js';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** A question of one kind. */
type Ask<M extends InputRequest['method']> = Extract<InputRequest, { method: M }>;

/** The elicitation form a question asks the user to fill in. */
type Form = Extract<Ask<'elicitation/create'>['params'], { requestedSchema: unknown }>['requestedSchema'];

/** Asks the user to fill in a form: its fields, and which of them are required. */
function askForm(
  message: string,
  properties: Form['properties'],
  required?: string[],
): Ask<'elicitation/create'> {
  return {
    method: 'elicitation/create',
    params: { message, requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) } },
  };
}

/** Asks for one line of text from the user, as a form with one required string field. */
function askText(message: string, property: string): Ask<'elicitation/create'> {
  return askForm(message, { [property]: { type: 'string' } }, [property]);
}

/** Asks the client's model one question. */
function askModel(question: string): Ask<'sampling/createMessage'> {
  return {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 100 },
  };
}

const ASK_ROOTS: Ask<'roots/list'> = { method: 'roots/list', params: {} };

/** The text of a model's answer, or a note of what else it was. */
function textOf(answer: { content: unknown }): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  const text = blocks.find((b): b is { type: 'text'; text: string } => b?.type === 'text');
  return text ? text.text : `(${blocks.map((b) => b?.type).join(', ')})`;
}

/** A one-line text result. */
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/** What an elicitation answer says, in a line. */
function elicited(answer: { action: string; content?: object }): string {
  return `action=${answer.action}${answer.content ? `, content=${JSON.stringify(answer.content)}` : ''}`;
}

/** One field of an elicitation answer, as text ('?' when the user gave none). */
function field(answer: { content?: Readonly<Record<string, unknown>> }, name: string): string {
  const value = answer.content?.[name];
  return value === undefined ? '?' : String(value);
}

function logThrice(context: CallContext): void {
  context.log('info', 'Tool execution started');
  context.log('info', 'Tool processing data');
  context.log('info', 'Tool execution completed');
}

/** A tool that asks the user to confirm, and answers `reply` with what they said. */
function confirming(name: string, description: string, reply: string): ToolDefinition {
  return {
    name,
    description,
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { confirm } = await context.input({
        confirm: askForm('Confirm?', { ok: { type: 'boolean' } }, ['ok']),
      });
      return say(`${reply}: ${elicited(confirm)}`);
    },
  };
}

/** Tools that report progress, log, or ask the client questions (one round or several). */
export const conversationalTools: ToolDefinition[] = [
  {
    name: 'test_tool_with_logging',
    description: 'Sends three log messages (info) while it works, then answers.',
    inputSchema: NO_ARGUMENTS,
    call: (_args, context) => {
      logThrice(context);
      return say('Logging test completed: three messages sent.');
    },
  },
  {
    name: 'test_logging_tool',
    description: 'Sends log messages only when the request asked for a log level.',
    inputSchema: NO_ARGUMENTS,
    call: (_args, context) => {
      logThrice(context);
      return say('Done; log messages were sent if a level was asked for.');
    },
  },
  {
    name: 'test_tool_with_progress',
    description:
      'Reports progress three times (0, 50 and 100 of 100) when the request carries a progress token.',
    inputSchema: NO_ARGUMENTS,
    call: (_args, context) => {
      context.progress(0, 100, 'Starting');
      context.progress(50, 100, 'Halfway');
      context.progress(100, 100, 'Done');
      return say('Progress test completed.');
    },
  },
  {
    name: 'test_sampling',
    description: "Asks the client's model the prompt it is given and answers with what the model said.",
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    call: async (args, context) => {
      const { reply } = await context.input({ reply: askModel(String(args.prompt)) });
      return say(`LLM response: ${textOf(reply)}`);
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email address, with the message it is given.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    call: async (args, context) => {
      const { user } = await context.input({
        user: askForm(
          String(args.message),
          {
            username: { type: 'string', description: "The user's name" },
            email: { type: 'string', description: "The user's email address" },
          },
          ['username', 'email'],
        ),
      });
      return say(`User response: ${elicited(user)}`);
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description:
      'Asks the user for a form whose every field has a default (string, integer, number, enum, boolean).',
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { form } = await context.input({
        form: askForm('Please check these details; each has a default.', {
          name: { type: 'string', description: 'Name', default: 'John Doe' },
          age: { type: 'integer', description: 'Age', default: 30 },
          score: { type: 'number', description: 'Score', default: 95.5 },
          status: {
            type: 'string',
            description: 'Status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verified', default: true },
        }),
      });
      return say(`Elicitation completed: ${elicited(form)}`);
    },
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description:
      'Asks the user to choose from each kind of enumeration: untitled, titled, legacy, and multi-select.',
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { choice } = await context.input({
        choice: askForm('Please choose.', {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First option' },
              { const: 'value2', title: 'Second option' },
            ],
          },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option one', 'Option two'] },
          untitledMulti: {
            type: 'array',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First choice' },
                { const: 'value2', title: 'Second choice' },
              ],
            },
          },
        }),
      });
      return say(`Elicitation completed: ${elicited(choice)}`);
    },
  },
  {
    name: 'test_missing_capability',
    description: "Needs the client's sampling capability: refused when the client did not declare it.",
    inputSchema: NO_ARGUMENTS,
    // It asks the client's model a question and changes nothing: the kit calls it without --side-effects.
    annotations: { readOnlyHint: true },
    call: async (_args, context) => {
      const { reply } = await context.input({ reply: askModel('Say hello.') });
      return say(`LLM response: ${textOf(reply)}`);
    },
  },
  {
    name: 'test_streaming_elicitation',
    description: 'Asks the user a question while it works.',
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { answer } = await context.input({ answer: askText('What should I call you?', 'name') });
      return say(`Answer: ${elicited(answer)}`);
    },
  },
  {
    name: 'test_input_required_result_elicitation',
    description: "Asks the user's name, then greets them.",
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { user_name } = await context.input({ user_name: askText('What is your name?', 'name') });
      return say(`Hello, ${field(user_name, 'name')}! (${elicited(user_name)})`);
    },
  },
  {
    name: 'test_input_required_result_sampling',
    description: "Asks the client's model a question and answers with what it said.",
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { capital_question } = await context.input({
        capital_question: askModel('What is the capital of France?'),
      });
      return say(`The model said: ${textOf(capital_question)}`);
    },
  },
  {
    name: 'test_input_required_result_list_roots',
    description: 'Asks the client for its roots and lists them.',
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { client_roots } = await context.input({ client_roots: ASK_ROOTS });
      return say(`Roots: ${client_roots.roots.map((r) => r.uri).join(', ') || '(none)'}`);
    },
  },
  confirming(
    'test_input_required_result_request_state',
    'Asks for a confirmation; the retry carries the state the first round issued.',
    'state-ok',
  ),
  confirming(
    'test_input_required_result_tampered_state',
    'Asks for a confirmation; a retry whose state was altered is refused.',
    'Confirmed',
  ),
  {
    name: 'test_input_required_result_multiple_inputs',
    description:
      "Asks three questions at once: the user's name, the model's capital of France, the client's roots.",
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const answers = await context.input({
        user_name: askText('What is your name?', 'name'),
        capital_question: askModel('What is the capital of France?'),
        client_roots: ASK_ROOTS,
      });
      return say(
        `name ${elicited(answers.user_name)}; model: ${textOf(answers.capital_question)}; ${answers.client_roots.roots.length} root(s)`,
      );
    },
  },
  {
    name: 'test_input_required_result_multi_round',
    description: "Asks the user's name, and once it has it, their favourite colour.",
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      const { user_name } = await context.input({ user_name: askText('What is your name?', 'name') });
      const { favorite_color } = await context.input({
        favorite_color: askText('What is your favourite colour?', 'color'),
      });
      return say(`${field(user_name, 'name')} likes ${field(favorite_color, 'color')}.`);
    },
  },
  {
    name: 'test_input_required_result_capabilities',
    description:
      "Asks the user if the client can elicit, else the client's model: only what the client declared.",
    inputSchema: NO_ARGUMENTS,
    call: async (_args, context) => {
      if ('elicitation' in context.clientCapabilities) {
        const { user_name } = await context.input({ user_name: askText('What is your name?', 'name') });
        return say(`Elicited: ${elicited(user_name)}`);
      }
      const { capital_question } = await context.input({
        capital_question: askModel('What is the capital of France?'),
      });
      return say(`Sampled: ${textOf(capital_question)}`);
    },
  },
];

/** Prompts that ask the client before they render. */
export const conversationalPrompts: PromptDefinition[] = [
  {
    name: 'test_input_required_result_prompt',
    description: 'Asks the user for context before the prompt is rendered, when the client can ask them.',
    get: async (_args, context) => {
      // A prompt is useful without the user's context too: a client that cannot elicit gets it without.
      const given =
        'elicitation' in context.clientCapabilities
          ? field(
              (
                await context.input({
                  user_context: askText('What context should the prompt include?', 'context'),
                })
              ).user_context,
              'context',
            )
          : '(none given)';
      return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${given}` } }] };
    },
  },
];
