// A code-shot Fixie agent: a prompt, few-shots that call its functions, and the functions. The factory refuses
// to start when a few-shot breaks the grammar or calls a function that is not here.
import { createCodeShotAgent } from '@agentproto/fixie/1.0';

export const app = createCodeShotAgent({
  basePrompt: 'I answer questions by calling my functions.',
  // TODO: write few-shots that show the model when to call your functions.
  fewShots: ['Q: Say hello to Ada.\nAsk Func[greet]: Ada\nFunc[greet] says: Hello, Ada!\nA: Hello, Ada!'],
  functions: {
    // TODO: your functions. Each gets the query the model wrote and returns a text, a message or a response.
    greet: ({ message }) => `Hello, ${message.text}!`,
  },
});
