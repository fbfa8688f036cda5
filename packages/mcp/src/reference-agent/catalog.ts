// What the reference MCP server offers: tools that answer with each kind of content (and one that fails), fixed and
// templated resources, prompts with arguments, and completions, under the names the official conformance suite's
// server scenarios ask for.
import type { McpServerDefinition } from '../server/definition.js';
import { conversationalPrompts, conversationalTools } from './conversational.js';

// A 1×1 PNG and a 1-sample WAV, small enough to keep inline.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

const CITIES = [
  'Amsterdam',
  'Athens',
  'Berlin',
  'Bern',
  'Lisbon',
  'London',
  'Madrid',
  'Paris',
  'Prague',
  'Rome',
];

/** The reference server's catalogue. */
export const referenceCatalog: McpServerDefinition = {
  info: { name: 'agentproto-reference-agent', title: 'agentproto reference MCP server', version: '0.1.0' },
  instructions: 'A server for testing MCP clients: each tool answers with one kind of content.',
  tools: [
    {
      name: 'test_simple_text',
      description: 'Answers with one text block.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] }),
    },
    {
      name: 'test_image_content',
      description: 'Answers with a 1×1 PNG image.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
    },
    {
      name: 'test_audio_content',
      description: 'Answers with a one-sample WAV clip.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
    },
    {
      name: 'test_embedded_resource',
      description: 'Answers with a resource embedded in the result.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => ({
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'test://embedded-resource',
              mimeType: 'text/plain',
              text: 'This is an embedded resource content.',
            },
          },
        ],
      }),
    },
    {
      name: 'test_multiple_content_types',
      description: 'Answers with text, an image and an embedded resource.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: '{"test":"data","value":123}',
            },
          },
        ],
      }),
    },
    {
      name: 'test_error_handling',
      description: 'Always fails, as a tool error the model can read.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      call: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    },
    {
      name: 'add',
      title: 'Add two numbers',
      description: 'Adds `a` and `b`; the sum is also given as structured content.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      annotations: { readOnlyHint: true, idempotentHint: true },
      call: (args) => {
        const sum = Number(args.a) + Number(args.b);
        return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
      },
    },
    {
      name: 'json_schema_2020_12_tool',
      description:
        'Takes arguments described with JSON Schema 2020-12 keywords ($defs, $ref), as the tool lists them.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      call: (args) => ({ content: [{ type: 'text', text: `Received: ${JSON.stringify(args)}` }] }),
    },
    ...conversationalTools,
  ],
  resources: [
    {
      uri: 'test://static-text',
      name: 'static-text',
      description: 'A text resource that never changes.',
      mimeType: 'text/plain',
      read: () => [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    },
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A binary resource (a PNG image).',
      mimeType: 'image/png',
      read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'A JSON document for any id.',
      mimeType: 'application/json',
      read: ({ id = '' }) => [
        {
          uri: `test://template/${encodeURIComponent(id)}/data`,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
      complete: (variable, value) =>
        variable === 'id' ? ['1', '2', '3', '10', '42'].filter((v) => v.startsWith(value)) : [],
    },
  ],
  prompts: [
    {
      name: 'test_simple_prompt',
      description: 'A prompt without arguments.',
      get: () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
      }),
    },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt that uses its two arguments.',
      arguments: [
        { name: 'arg1', description: 'The first argument.', required: true },
        { name: 'arg2', description: 'The second argument.', required: true },
      ],
      get: (args) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
            },
          },
        ],
      }),
    },
    {
      name: 'trip_plan',
      title: 'Plan a trip',
      description: 'Asks the model for a day trip in a city; the city completes from a list.',
      arguments: [{ name: 'city', description: 'Where to go.', required: true }],
      get: (args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Plan a day trip in ${args.city}.` } }],
      }),
      complete: (argument, value) =>
        argument === 'city' ? CITIES.filter((c) => c.toLowerCase().startsWith(value.toLowerCase())) : [],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds the resource its argument names.',
      arguments: [{ name: 'resourceUri', description: 'The URI of the resource to embed.', required: true }],
      get: (args) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: String(args.resourceUri),
                mimeType: 'text/plain',
                text: 'Embedded resource content for testing.',
              },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      }),
    },
    {
      name: 'test_prompt_with_image',
      description: 'A prompt that shows the model an image.',
      get: () => ({
        messages: [
          { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please describe the image above.' } },
        ],
      }),
    },
    ...conversationalPrompts,
  ],
};
