import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of allof-chain construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/allof-chain/1/Base.schema.json",
   "title": "Base",
   "description": "What every record has.",
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
   "$id": "https://agentproto.dev/schemas/allof-chain/1/Named.schema.json",
   "title": "Named",
   "description": "A record with a name.",
   "type": "object",
   "allOf": [
    {
     "$ref": "Base.schema.json"
    }
   ],
   "required": [
    "name"
   ],
   "properties": {
    "name": {
     "type": "string"
    }
   }
  },
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/allof-chain/1/Person.schema.json",
   "title": "Person",
   "description": "A named record with an age; no other keys.",
   "type": "object",
   "allOf": [
    {
     "$ref": "Named.schema.json"
    }
   ],
   "properties": {
    "age": {
     "type": "integer",
     "minimum": 0
    }
   },
   "unevaluatedProperties": false
  }
 ],
 "operations": [
  {
   "operationId": "listPeople",
   "method": "GET",
   "path": "/people",
   "pathParams": [],
   "queryParams": [],
   "responses": {
    "200": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "schema": {
       "type": "array",
       "items": {
        "$ref": "https://agentproto.dev/schemas/allof-chain/1/Person.schema.json"
       }
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
