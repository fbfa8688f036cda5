import type { Surface } from '@agentproto/runtime/documents';

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
 "examples": {}
};
