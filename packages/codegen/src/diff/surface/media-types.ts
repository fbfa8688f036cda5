// The media types of a request body or a response: one added or gone, and for one both sides have, its schema and
// the schema of its stream items (`x-itemSchema`). Shared by the request body and the responses.
import { escapePointerToken } from '../../diagnostics.js';
import type { ContentModel } from '../../model/protocol-model.js';
import { type Findings, schemaFindings, union } from './surface-finding.js';

/** Every media type added or removed, and every change of the schemas of one both sides declare. */
export function contentChanges(
  out: Findings,
  name: string,
  before: ContentModel[],
  after: ContentModel[],
  po: string,
  pn: string,
  direction: 'request' | 'response',
): void {
  const b = new Map(before.map((c) => [c.mediaType, c]));
  const a = new Map(after.map((c) => [c.mediaType, c]));
  const mt = (base: string, media: string) => `${base}/content/${escapePointerToken(media)}`;
  for (const media of union(b.keys(), a.keys())) {
    const p = b.get(media);
    const q = a.get(media);
    if (!p || !q) {
      const added = !p;
      out.push({
        found: {
          rule: added ? 'media-type-added' : 'media-type-removed',
          area: 'media-type',
          subject: name,
          message: `${added ? 'now also' : 'no longer'} ${direction === 'request' ? 'takes' : 'answers with'} ${media}`,
          ...(added
            ? { oldPointer: po, newPointer: mt(pn, media) }
            : { oldPointer: mt(po, media), newPointer: pn }),
          expect: added ? 'receivers' : 'senders',
          mutations: [],
        },
        document: 'openapi',
        witnesses: [
          {
            breaks: added ? 'receivers' : 'senders',
            subject: `${name} body`,
            message: { contentType: media },
            rejection: `the ${added ? 'old' : 'new'} document declares no ${media} for ${name}`,
          },
        ],
      });
      continue;
    }
    schemaFindings(
      out,
      'openapi',
      `${name} ${media}`,
      'media-type',
      p.schema,
      q.schema,
      `${mt(po, media)}/schema`,
      `${mt(pn, media)}/schema`,
    );
    if (p.item || q.item)
      schemaFindings(
        out,
        'openapi',
        `${name} ${media} item`,
        'stream-item',
        p.item?.schema ?? true,
        q.item?.schema ?? true,
        `${mt(po, media)}/x-itemSchema`,
        `${mt(pn, media)}/x-itemSchema`,
      );
  }
}
