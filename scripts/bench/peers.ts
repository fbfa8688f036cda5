// The AgentScope 1.1 types the validator benchmark measures, restated for the peers it is compared with: TypeBox
// (compiled with TypeCompiler) and zod 4. Same constraints as schemas/agentscope/1.1 (nullable fields, the content
// union chosen by `type`, enums), so every validator does the same work.
import { type TSchema, Type } from '@sinclair/typebox';
import { z } from 'zod';

const RUN_STATUS = [
  'created',
  'in_progress',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'unknown',
  'queued',
  'incomplete',
] as const;
const MESSAGE_TYPE = [
  'message',
  'function_call',
  'function_call_output',
  'plugin_call',
  'plugin_call_output',
  'component_call',
  'component_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_call',
  'mcp_approval_response',
  'mcp_call_output',
  'reasoning',
  'heartbeat',
  'error',
  'a2ui_response',
  'a2ui_action',
] as const;

// TypeBox
const tNull = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const tError = Type.Object({ code: Type.String(), message: Type.String() });
const tBase = {
  sequence_number: tNull(Type.Integer({ minimum: 0 })),
  status: tNull(Type.Union(RUN_STATUS.map((s) => Type.Literal(s)))),
  error: tNull(tError),
  object: Type.Optional(Type.Literal('content')),
  index: tNull(Type.Integer({ minimum: 0 })),
  delta: tNull(Type.Boolean()),
  msg_id: tNull(Type.String()),
};
const tPart = (type: string, fields: Record<string, TSchema>) =>
  Type.Object({ ...tBase, type: Type.Literal(type), ...fields });
const tContent = Type.Union([
  tPart('text', { text: tNull(Type.String()) }),
  tPart('image', { image_url: tNull(Type.String()) }),
  tPart('data', { data: tNull(Type.Record(Type.String(), Type.Unknown())) }),
  tPart('audio', { data: tNull(Type.String()), format: tNull(Type.String()) }),
  tPart('file', {
    file_url: tNull(Type.String()),
    file_id: tNull(Type.String()),
    filename: tNull(Type.String()),
    file_data: tNull(Type.String()),
  }),
  tPart('refusal', { refusal: tNull(Type.String()) }),
  tPart('video', { video_url: tNull(Type.String()) }),
]);
const tMessage = Type.Object({
  sequence_number: tNull(Type.Integer({ minimum: 0 })),
  error: tNull(tError),
  id: Type.Optional(Type.String()),
  object: Type.Optional(Type.Literal('message')),
  type: Type.Optional(Type.Union(MESSAGE_TYPE.map((s) => Type.Literal(s)))),
  status: Type.Optional(Type.Union(RUN_STATUS.map((s) => Type.Literal(s)))),
  role: tNull(
    Type.Union([
      Type.Literal('assistant'),
      Type.Literal('user'),
      Type.Literal('system'),
      Type.Literal('tool'),
    ]),
  ),
  content: tNull(Type.Array(tContent)),
  code: tNull(Type.String()),
  message: tNull(Type.String()),
  usage: tNull(Type.Record(Type.String(), Type.Unknown())),
  metadata: tNull(Type.Record(Type.String(), Type.Unknown())),
});
const tTool = Type.Object({
  type: tNull(Type.String()),
  function: tNull(
    Type.Object({
      name: Type.String(),
      description: Type.String(),
      parameters: Type.Union([
        Type.Object({
          type: Type.Literal('object'),
          properties: Type.Record(Type.String(), Type.Unknown()),
          required: Type.Union([Type.Array(Type.String()), Type.Null()]),
        }),
        Type.Record(Type.String(), Type.Unknown()),
      ]),
    }),
  ),
});
const tNumber = tNull(Type.Number());
export const typeboxContent = tContent;
export const typeboxAgentRequest = Type.Object({
  input: Type.Array(tMessage),
  stream: Type.Optional(Type.Boolean()),
  id: tNull(Type.String()),
  model: tNull(Type.String()),
  top_p: tNumber,
  temperature: tNumber,
  frequency_penalty: tNumber,
  presence_penalty: tNumber,
  max_tokens: tNull(Type.Integer()),
  stop: tNull(Type.Union([Type.String(), Type.Array(Type.String())])),
  n: tNull(Type.Integer({ minimum: 1, maximum: 5 })),
  seed: tNull(Type.Integer()),
  tools: tNull(Type.Array(Type.Union([tTool, Type.Record(Type.String(), Type.Unknown())]))),
  session_id: tNull(Type.String()),
  user_id: tNull(Type.String()),
});

// zod 4
const zn = <T extends z.ZodType>(t: T) => t.nullable().optional();
const zError = z.object({ code: z.string(), message: z.string() });
const zBase = {
  sequence_number: zn(z.int().min(0)),
  status: zn(z.enum(RUN_STATUS)),
  error: zn(zError),
  object: z.literal('content').optional(),
  index: zn(z.int().min(0)),
  delta: zn(z.boolean()),
  msg_id: zn(z.string()),
};
const zPart = <T extends string, F extends z.ZodRawShape>(type: T, fields: F) =>
  z.looseObject({ ...zBase, type: z.literal(type), ...fields });
const zContent = z.discriminatedUnion('type', [
  zPart('text', { text: zn(z.string()) }),
  zPart('image', { image_url: zn(z.string()) }),
  zPart('data', { data: zn(z.record(z.string(), z.unknown())) }),
  zPart('audio', { data: zn(z.string()), format: zn(z.string()) }),
  zPart('file', {
    file_url: zn(z.string()),
    file_id: zn(z.string()),
    filename: zn(z.string()),
    file_data: zn(z.string()),
  }),
  zPart('refusal', { refusal: zn(z.string()) }),
  zPart('video', { video_url: zn(z.string()) }),
]);
const zMessage = z.looseObject({
  sequence_number: zn(z.int().min(0)),
  error: zn(zError),
  id: z.string().optional(),
  object: z.literal('message').optional(),
  type: z.enum(MESSAGE_TYPE).optional(),
  status: z.enum(RUN_STATUS).optional(),
  role: zn(z.enum(['assistant', 'user', 'system', 'tool'])),
  content: zn(z.array(zContent)),
  code: zn(z.string()),
  message: zn(z.string()),
  usage: zn(z.record(z.string(), z.unknown())),
  metadata: zn(z.record(z.string(), z.unknown())),
});
const zTool = z.looseObject({
  type: zn(z.string()),
  function: zn(
    z.looseObject({
      name: z.string(),
      description: z.string(),
      parameters: z.union([
        z.looseObject({
          type: z.literal('object'),
          properties: z.record(z.string(), z.unknown()),
          required: z.array(z.string()).nullable(),
        }),
        z.record(z.string(), z.unknown()),
      ]),
    }),
  ),
});
export const zodContent = zContent;
export const zodAgentRequest = z.looseObject({
  input: z.array(zMessage),
  stream: z.boolean().optional(),
  id: zn(z.string()),
  model: zn(z.string()),
  top_p: zn(z.number()),
  temperature: zn(z.number()),
  frequency_penalty: zn(z.number()),
  presence_penalty: zn(z.number()),
  max_tokens: zn(z.int()),
  stop: zn(z.union([z.string(), z.array(z.string())])),
  n: zn(z.int().min(1).max(5)),
  seed: zn(z.int()),
  tools: zn(z.array(z.union([zTool, z.record(z.string(), z.unknown())]))),
  session_id: zn(z.string()),
  user_id: zn(z.string()),
});
