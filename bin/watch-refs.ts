/**
 * The other files an OpenAPI or AsyncAPI input `$ref`s, followed transitively, for `--watch` to
 * watch. A text scan, not a resolver: it may list a file generation does not read (harmless: one
 * more folder watched) and it never fails.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ApiConfig } from '../generators/core/config.js';

/** `$ref: ./x.yaml#/A`, `"$ref": "../common/x.json"`: the file part of a reference to another file. */
const FILE_REF = /["']?\$ref["']?\s*:\s*["']?([^"'#\s,}\]]+)/g;
/** Enough for any real schema split into files; bounds the work on a pathological one. */
const MAX_FILES = 500;

export function referencedFiles(apis: ApiConfig[]): string[] {
  const inputs = apis.filter((api) => api.style === 'openapi' || api.style === 'asyncapi').flatMap((api) => api.inputs);
  const seen = new Set<string>();
  const queue = [...inputs];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('$ref')) continue;
    for (const [, target] of text.matchAll(FILE_REF)) {
      if (/^[a-z][a-z\d+.-]*:/i.test(target!)) continue; // a URL: nothing to watch on disk
      queue.push(resolve(dirname(file), decoded(target!)));
    }
  }
  const isInput = new Set(inputs);
  return [...seen].filter((file) => !isInput.has(file));
}

/** References are URI references: `my%20file.yaml` is `my file.yaml`. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
