import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of yaml-media construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/yaml-media/1/Card.schema.json",
   "title": "Card",
   "description": "What the agent says about itself.",
   "type": "object",
   "required": [
    "name"
   ],
   "properties": {
    "name": {
     "type": "string"
    }
   }
  }
 ],
 "operations": [
  {
   "operationId": "getCard",
   "method": "GET",
   "path": "/",
   "pathParams": [],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Card",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/yaml-media/1/Card.schema.json"
      }
     },
     {
      "mediaType": "application/yaml",
      "kind": "yaml",
      "typeName": "Card",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/yaml-media/1/Card.schema.json"
      }
     }
    ]
   }
  },
  {
   "operationId": "readLines",
   "method": "POST",
   "path": "/lines",
   "pathParams": [],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "application/x-ndjson",
      "kind": "stream",
      "schema": {
       "type": "string"
      },
      "item": {
       "framing": "ndjson"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
