import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of sse-items construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/sse-items/1/Tick.schema.json",
   "title": "Tick",
   "description": "One event of the stream.",
   "type": "object",
   "required": [
    "seq",
    "text"
   ],
   "properties": {
    "seq": {
     "type": "integer",
     "minimum": 0
    },
    "text": {
     "type": "string"
    }
   }
  }
 ],
 "operations": [
  {
   "operationId": "streamTicks",
   "method": "GET",
   "path": "/ticks",
   "pathParams": [],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "text/event-stream",
      "kind": "stream",
      "schema": {
       "type": "string"
      },
      "item": {
       "framing": "sse",
       "typeName": "Tick"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
