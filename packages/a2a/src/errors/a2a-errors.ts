// A2A's errors (specification §5.4) as data: each one's JSON-RPC code, HTTP status and gRPC status name, and how its
// ErrorInfo detail is marked. Free of imports, so the conformance suite reads the same table the server answers from
// without loading the server.

/** The `@type` of a google.rpc.ErrorInfo detail: where an A2A error names itself (`reason`). */
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/** The domain of A2A's own ErrorInfo details. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';

/** Every A2A error: its JSON-RPC code, its HTTP status and gRPC status name (§5.4), and a default message. */
export const A2A_ERRORS = {
  TASK_NOT_FOUND: { code: -32001, http: 404, status: 'NOT_FOUND', message: 'Task not found' },
  TASK_NOT_CANCELABLE: {
    code: -32002,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'Task cannot be canceled',
  },
  PUSH_NOTIFICATION_NOT_SUPPORTED: {
    code: -32003,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'Push notifications are not supported',
  },
  UNSUPPORTED_OPERATION: {
    code: -32004,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'This operation is not supported',
  },
  CONTENT_TYPE_NOT_SUPPORTED: {
    code: -32005,
    http: 400,
    status: 'INVALID_ARGUMENT',
    message: 'Incompatible content types',
  },
  INVALID_AGENT_RESPONSE: { code: -32006, http: 500, status: 'INTERNAL', message: 'Invalid agent response' },
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: {
    code: -32007,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'Extended agent card is not configured',
  },
  EXTENSION_SUPPORT_REQUIRED: {
    code: -32008,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'A required extension is not supported',
  },
  VERSION_NOT_SUPPORTED: {
    code: -32009,
    http: 400,
    status: 'FAILED_PRECONDITION',
    message: 'This protocol version is not supported',
  },
} as const;

/** An A2A error's name, as its ErrorInfo `reason` spells it. */
export type A2aErrorReason = keyof typeof A2A_ERRORS;
