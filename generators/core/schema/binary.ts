/**
 * Which string schemas carry bytes rather than text. The type emitter types them `Blob`, the
 * validators check `instanceof Blob`, and the REST server hands multipart file parts to both as
 * `File`s: one rule, so the type, its guard and the server agree.
 */
import type { SchemaObject } from './json-schema.js';

/** Textual media types travel as strings; anything else is bytes. */
function textMedia(mediaType: string): boolean {
  return /^text\/|[/+](json|xml)(;|$)|^application\/(javascript|x-www-form-urlencoded|yaml|x-yaml)(;|$)/i.test(mediaType.trim());
}

/**
 * `format: binary`, or a non-text `contentMediaType` without a `contentEncoding` (an encoded
 * payload, `contentEncoding: base64`, is text): a `Blob` wherever the schema says `string`.
 */
export function isBinarySchema(schema: SchemaObject): boolean {
  if (schema.format === 'binary') return true;
  return typeof schema.contentMediaType === 'string' && schema.contentEncoding === undefined && !textMedia(schema.contentMediaType);
}
