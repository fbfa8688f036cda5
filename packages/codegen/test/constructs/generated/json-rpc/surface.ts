import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of json-rpc construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/json-rpc/1/Tick.schema.json",
   "title": "Tick",
   "description": "One event of a stream.",
   "type": "object",
   "required": [
    "seq"
   ],
   "properties": {
    "seq": {
     "type": "integer",
     "minimum": 0
    },
    "note": {
     "description": "Anything at all."
    }
   }
  }
 ],
 "operations": [],
 "examples": {},
 "rpc": {
  "methods": [
   {
    "name": "add",
    "params": {
     "type": "object",
     "properties": {
      "a": {
       "type": "number"
      },
      "b": {
       "type": "number",
       "default": 0
      }
     },
     "required": [
      "a"
     ]
    },
    "paramsType": "rpc_add_params",
    "resultType": "rpc_add_result",
    "errors": [
     -32050
    ]
   },
   {
    "name": "notify/ping",
    "params": {
     "type": "object",
     "properties": {}
    },
    "paramsType": "rpc_notify_ping_params",
    "resultType": "rpc_notify_ping_result",
    "errors": []
   },
   {
    "name": "watch",
    "params": {
     "type": "object",
     "properties": {
      "from": {
       "type": "integer",
       "minimum": 0
      }
     }
    },
    "paramsType": "rpc_watch_params",
    "resultType": "Tick",
    "stream": "sse",
    "errors": []
   }
  ],
  "errors": [
   -32050
  ]
 }
};
