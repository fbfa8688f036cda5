// What `describe` answers: the agent's descriptor, with the endpoints every agent serves and the built-in chat
// operation beside the custom ones. Apart from the runtime because it reads only the definition, never the store.
import type { AgentDescriptor, AgentOperation } from '../generated/draft-2025-02/index.js';
import type { AgentDefinition, OperationDefinition } from './agent-definition.js';

const CHAT_OPERATION: AgentOperation = {
  name: 'chat',
  description: 'Send a chat request: a text input, a text answer.',
  input_schema: { type: 'object', required: ['input'], properties: { input: { type: 'string' } } },
  output_schema: { type: 'object', required: ['output'], properties: { output: { type: 'string' } } },
};

/** The endpoints every agent of ours serves, relative to its path. */
export const AGENT_ENDPOINTS = [
  '/describe',
  '/process',
  '/getevents',
  '/stream_request',
  '/request/{request_id}',
  '/runs',
  '/getevents/{run_id}',
];

/** The agent's descriptor: its name and purpose, the endpoints, chat then its custom operations, and its tools. */
export function describeAgent(
  agent: AgentDefinition,
  custom: Iterable<OperationDefinition>,
): AgentDescriptor {
  const operations = [...custom].map((o) => ({
    name: o.name,
    description: o.description,
    // TypeBox schemas are JSON Schema; JSON drops its symbol-keyed markers.
    // sound: a TypeBox schema is a JSON object, and the JSON text of an object parses back to an object.
    input_schema: JSON.parse(JSON.stringify(o.input)) as Record<string, unknown>,
    output_schema: JSON.parse(JSON.stringify(o.output)) as Record<string, unknown>,
  }));
  return {
    name: agent.name,
    purpose: agent.purpose,
    endpoints: AGENT_ENDPOINTS,
    operations: [CHAT_OPERATION, ...operations],
    tools: [...(agent.tools ?? [])],
  };
}
