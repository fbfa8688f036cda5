import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of nullable construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/nullable/1/Note.schema.json",
   "title": "Note",
   "description": "A note whose title may be null and whose tags may be absent or null.",
   "type": "object",
   "required": [
    "title"
   ],
   "properties": {
    "title": {
     "anyOf": [
      {
       "type": "string",
       "maxLength": 10
      },
      {
       "type": "null"
      }
     ]
    },
    "tags": {
     "type": [
      "array",
      "null"
     ],
     "items": {
      "type": "string"
     }
    }
   },
   "additionalProperties": false
  }
 ],
 "operations": [
  {
   "operationId": "getNote",
   "method": "GET",
   "path": "/notes/{id}",
   "pathParams": [
    {
     "name": "id",
     "required": true,
     "schema": {
      "type": "integer",
      "minimum": 1
     }
    }
   ],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Note",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/nullable/1/Note.schema.json"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
