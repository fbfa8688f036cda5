import type { Surface } from '@agentproto/runtime/contract';

/** The HTTP surface of multipart construct as data, for the conformance kit's schema-driven checks. */
export const SURFACE: Surface = {
 "schemas": [
  {
   "$schema": "https://json-schema.org/draft/2020-12/schema",
   "$id": "https://agentproto.dev/schemas/multipart/1/Upload.schema.json",
   "title": "Upload",
   "description": "A file and where to put it.",
   "type": "object",
   "required": [
    "file"
   ],
   "properties": {
    "file": {
     "type": "string",
     "format": "binary"
    },
    "folder": {
     "type": "string"
    }
   }
  }
 ],
 "operations": [
  {
   "operationId": "uploadFile",
   "method": "POST",
   "path": "/files",
   "pathParams": [],
   "queryParams": [],
   "body": {
    "required": true,
    "contents": [
     {
      "mediaType": "multipart/form-data",
      "kind": "form",
      "typeName": "Upload",
      "schema": {
       "$ref": "https://agentproto.dev/schemas/multipart/1/Upload.schema.json"
      },
      "fileFields": [
       "file"
      ]
     }
    ]
   },
   "responses": {
    "200": [
     {
      "mediaType": "application/octet-stream",
      "kind": "binary",
      "schema": {
       "type": "string",
       "format": "binary"
      }
     }
    ]
   }
  }
 ],
 "examples": {}
};
