// Media types (OpenAPI 3.1 Media Type Object, §4.8.14) of request bodies and responses: what kind of body each is,
// its schema, the file fields of a form, and for a stream the schema of each item (`x-itemSchema`, OpenAPI 3.2's
// `itemSchema`) and the field SSE sends as each event's id (`x-sseIdField`).
import { isRecord } from '../util/json.js';
import { ITEM_SCHEMA, SSE_ID_FIELD, streamFraming } from '../util/media-types.js';
import type { ContentModel } from './protocol-model.js';
import type { ModelContext } from './references.js';

/** The media types of one `content` map, sorted by media type. */
export function contentsOf(ctx: ModelContext, content: unknown): ContentModel[] {
  return Object.entries(isRecord(content) ? content : {})
    .map(([mediaType, media]) => {
      const raw = isRecord(media) && isRecord(media.schema) ? media.schema : {};
      const typeName = ctx.typeOf(raw);
      const kind = contentKind(mediaType);
      const fileFields =
        kind === 'form'
          ? binaryProperties(typeName ? ctx.types.find((t) => t.name === typeName)?.schema : ctx.deref(raw))
          : [];
      const model: ContentModel = {
        mediaType,
        kind,
        ...(typeName ? { typeName } : {}),
        schema: ctx.toIdRefs(raw),
        fileFields,
      };
      const framing = streamFraming(mediaType);
      const itemSchema = isRecord(media) ? media[ITEM_SCHEMA] : undefined;
      if (framing && isRecord(itemSchema)) {
        const itemType = ctx.typeOf(itemSchema);
        const idField = isRecord(media) ? media[SSE_ID_FIELD] : undefined;
        model.item = {
          framing,
          ...(itemType ? { typeName: itemType } : {}),
          schema: ctx.toIdRefs(itemSchema),
          ...(typeof idField === 'string' ? { idField } : {}),
        };
      }
      return model;
    })
    .sort((a, b) => a.mediaType.localeCompare(b.mediaType));
}

/** How a body of this media type is read and checked. */
function contentKind(mediaType: string): ContentModel['kind'] {
  if (streamFraming(mediaType)) return 'stream';
  if (/^(application|text)\/((.+\+)?yaml|x-yaml)$/.test(mediaType)) return 'yaml';
  if (/^application\/(.+\+)?json$/.test(mediaType)) return 'json';
  if (mediaType === 'multipart/form-data' || mediaType === 'application/x-www-form-urlencoded') return 'form';
  return 'binary';
}

/** The properties of an object schema whose values are files (`contentMediaType` or `format: binary`). */
function binaryProperties(schema: unknown): string[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([, p]) => isRecord(p) && (typeof p.contentMediaType === 'string' || p.format === 'binary'))
    .map(([k]) => k)
    .sort();
}
