import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of status-ranges construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json",
   "title": "Receipt",
   "description": "What the agent answers when it took the order.",
   "type": "object",
   "required": [
    "id"
   ],
   "properties": {
    "id": {
     "type": "string"
    }
   }
  },
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/status-ranges/1/Failure.schema.json",
   "title": "Failure",
   "description": "Why the order failed.",
   "type": "object",
   "required": [
    "reason"
   ],
   "properties": {
    "reason": {
     "type": "string"
    }
   }
  }
 ],
 "operations": [
  {
   "operationId": "placeOrder",
   "method": "POST",
   "path": "/orders",
   "pathParams": [],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Receipt",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json"
      }
     }
    ],
    "2XX": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Receipt",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/status-ranges/1/Receipt.schema.json"
      }
     }
    ],
    "4XX": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Failure",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/status-ranges/1/Failure.schema.json"
      }
     }
    ],
    "default": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "schema": {
       "type": "object"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
