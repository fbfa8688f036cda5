// Reading a request body within the limits: media type (415), size (413, while it streams in), charset and UTF-8,
// syntax (400), shape, then the operation's schema (422).
import { parse as parseYaml } from 'yaml';
import type { RequestLimits } from '../limits.js';
import type { ContentSpec } from '../operation-app.js';
import { type Problem, problem, problemResponse } from '../problem.js';
import { errorMessage } from '../unknown-values.js';
import { check, type ValidationIssue } from '../validation.js';
import { countMultipartParts, isUtf8Charset, parseMediaType } from './media-type.js';
import { clashMessage, readProtoNames } from './proto-names.js';
import { readLimitedBytes } from './read-bytes.js';
import { findShapeProblem, jsonTextIsPlain } from './value-shape.js';

/** A request body as the handler gets it, or the problem answer that refuses it. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** What an operation declares about its request body. */
export interface BodySpec {
  required: boolean;
  contents: readonly ContentSpec[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads, limits and checks a request body, in this order, so that the cheapest refusal comes first: the media type
 * (415 before a byte is read), the size (413 while the body streams in), the charset and UTF-8 (415, 400), the syntax
 * (400), the nesting depth and Unicode of the value (400), the part count of a form (413), for a ProtoJSON binding its
 * fields' proto names read as their JSON names (400 for a field given under both), and the schema (422).
 */
export async function readBody(request: Request, spec: BodySpec, limits: RequestLimits): Promise<BodyResult> {
  const header = request.headers.get('content-type') ?? '';
  const media = parseMediaType(header);
  const content = spec.contents.find((c) => c.mediaType === media.type);
  if (!content) {
    if (media.type === '') {
      // No media type is fine for no body at all; a body without one cannot be read.
      const empty = await readLimitedBytes(request, 0).catch(() => ({ ok: false as const }));
      if (empty.ok) {
        if (!spec.required) return { ok: true, value: undefined };
        return fail(problem(400, 'missing-body', 'this operation needs a request body'));
      }
    }
    const accepted = spec.contents.map((c) => c.mediaType).join(', ');
    return fail(
      problem(415, 'unsupported-media-type', `expected a body of type ${accepted}, got "${header}"`),
    );
  }
  const textual = content.kind === 'json' || content.kind === 'yaml';
  if (textual && !isUtf8Charset(media.params.charset))
    return fail(
      problem(
        415,
        'unsupported-charset',
        `${content.mediaType} bodies must be UTF-8, not "${media.params.charset}"`,
      ),
    );
  const maxBytes =
    content.kind === 'form' ? limits.formBytes : textual ? limits.jsonBytes : limits.binaryBytes;
  let read: Awaited<ReturnType<typeof readLimitedBytes>>;
  try {
    read = await readLimitedBytes(request, maxBytes);
  } catch {
    return fail(problem(400, 'unreadable-body', 'the body ended before it was complete'));
  }
  if (!read.ok)
    return fail(
      problem(413, 'body-too-large', `a ${content.mediaType} body may hold at most ${maxBytes} bytes`),
      { connection: 'close' },
    );
  const bytes = read.bytes;
  if (textual) return readText(bytes, content, spec, limits);
  if (content.kind === 'form') return readForm(bytes, header, media.params.boundary, content, limits);
  return validated(content, new Uint8Array(bytes), undefined);
}

function readText(
  bytes: Uint8Array,
  content: ContentSpec,
  spec: BodySpec,
  limits: RequestLimits,
): BodyResult {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail(problem(400, 'invalid-utf8', 'the body is not valid UTF-8'));
  }
  if (text.trim() === '' && !spec.required) return { ok: true, value: undefined };
  const what = content.kind === 'yaml' ? 'YAML' : 'JSON';
  let value: unknown;
  try {
    value = content.kind === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    // A parser that recurses runs out of stack on deep nesting: that is the depth limit speaking.
    const why =
      error instanceof RangeError ? `it nests more than ${limits.depth} levels deep` : errorMessage(error);
    return fail(problem(400, `malformed-${content.kind}`, `the body is not ${what}: ${why}`));
  }
  if (content.kind === 'yaml' || !jsonTextIsPlain(text, limits.depth)) {
    const shape = findShapeProblem(value, limits.depth);
    if (shape) {
      const message =
        shape.kind === 'too-deep'
          ? `nests more than ${limits.depth} levels deep`
          : 'holds a lone UTF-16 surrogate, which is not a Unicode character';
      return fail(
        problem(400, shape.kind === 'too-deep' ? 'too-deep' : 'invalid-unicode', `the body ${message}`, {
          location: 'body',
          list: [{ pointer: shape.pointer, message, keyword: shape.kind }],
        }),
      );
    }
  }
  if (content.protoNames) {
    const clash = readProtoNames(value, content.protoNames);
    if (clash) {
      const message = clashMessage(clash);
      return fail(
        problem(400, 'duplicate-field', `the body ${message}`, {
          location: 'body',
          list: [{ pointer: clash.pointer, message, keyword: 'protoJson' }],
        }),
      );
    }
  }
  return validated(content, value, value);
}

async function readForm(
  bytes: Uint8Array<ArrayBuffer>,
  header: string,
  boundary: string | undefined,
  content: ContentSpec,
  limits: RequestLimits,
): Promise<BodyResult> {
  const multipart = content.mediaType.startsWith('multipart/');
  if (multipart && !boundary)
    return fail(problem(400, 'malformed-form', 'the multipart body has no boundary in its Content-Type'));
  // A multipart body has a boundary by now (checked above).
  const parts =
    multipart && boundary
      ? countMultipartParts(bytes, boundary, limits.formParts)
      : countFields(bytes, limits.formParts);
  if (parts > limits.formParts)
    return fail(problem(413, 'too-many-parts', `a form may hold at most ${limits.formParts} parts`), {
      connection: 'close',
    });
  let form: FormData;
  try {
    // The platform's own form parser, over bytes already read and bounded.
    form = await new Response(bytes, {
      headers: { 'content-type': header },
    }).formData();
  } catch (error) {
    return fail(problem(400, 'malformed-form', `the body is not a readable form: ${errorMessage(error)}`));
  }
  const fields: Record<string, unknown> = {};
  const seenShape: Record<string, unknown> = {};
  const fileIssues: ValidationIssue[] = [];
  for (const [key, entry] of form.entries()) {
    fields[key] = entry;
    const isFile = typeof entry !== 'string';
    const wantsFile = content.fileFields?.includes(key) ?? false;
    if (wantsFile && !isFile)
      fileIssues.push({ pointer: `/${key}`, message: 'must be a file part', keyword: 'type' });
    // A file part stands in the checked shape as a string: JSON Schema describes binary fields as strings.
    seenShape[key] = isFile ? (wantsFile ? '' : { file: entry.name }) : entry;
  }
  if (fileIssues.length > 0)
    return fail(
      problem(422, 'invalid-body', 'the form breaks its schema', { location: 'body', list: fileIssues }),
    );
  return validated(content, fields, seenShape);
}

/** Fields of a URL-encoded form: one more than its `&` separators, counted up to `atMost + 1`. */
function countFields(bytes: Uint8Array, atMost: number): number {
  let fields = bytes.byteLength === 0 ? 0 : 1;
  for (let at = bytes.indexOf(0x26); at !== -1 && fields <= atMost; at = bytes.indexOf(0x26, at + 1))
    fields++;
  return fields;
}

/** The body, once its checked shape passes the content's schema (422 otherwise). */
function validated(content: ContentSpec, value: unknown, shape: unknown): BodyResult {
  if (content.validate) {
    const issues = check(content.validate, shape);
    if (issues.length > 0)
      return fail(
        problem(422, 'invalid-body', 'the body breaks its schema', { location: 'body', list: issues }),
      );
  }
  return { ok: true, value };
}

function fail(p: Problem, headers?: Record<string, string>): BodyResult {
  return { ok: false, response: problemResponse(p, headers) };
}
