import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of unions construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/unions/1/Circle.schema.json",
   "title": "Circle",
   "description": "A circle.",
   "type": "object",
   "required": [
    "kind",
    "radius"
   ],
   "properties": {
    "kind": {
     "const": "circle"
    },
    "radius": {
     "type": "number",
     "minimum": 0
    }
   },
   "additionalProperties": false
  },
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/unions/1/Square.schema.json",
   "title": "Square",
   "description": "A square.",
   "type": "object",
   "required": [
    "kind",
    "side"
   ],
   "properties": {
    "kind": {
     "const": "square"
    },
    "side": {
     "type": "number",
     "minimum": 0
    }
   },
   "additionalProperties": false
  },
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/unions/1/Shape.schema.json",
   "title": "Shape",
   "description": "A circle or a square, by `kind`.",
   "type": "object",
   "oneOf": [
    {
     "$ref": "Circle.schema.json"
    },
    {
     "$ref": "Square.schema.json"
    }
   ],
   "discriminator": {
    "propertyName": "kind",
    "mapping": {
     "circle": "Circle.schema.json",
     "square": "Square.schema.json"
    }
   }
  }
 ],
 "operations": [
  {
   "operationId": "addShape",
   "method": "POST",
   "path": "/shapes",
   "pathParams": [],
   "queryParams": [],
   "body": {
    "required": true,
    "contents": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Shape",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/unions/1/Shape.schema.json"
      }
     }
    ]
   },
   "responses": {
    "200": [
     {
      "mediaType": "application/json",
      "kind": "json",
      "typeName": "Shape",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/unions/1/Shape.schema.json"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
