/**
 * The other files an OpenAPI or AsyncAPI input `$ref`s, followed transitively, for `--watch` to
 * watch. A text scan, not a resolver: it may list a file generation does not read (harmless: one
 * more folder watched) and it never fails.
 */
import { dirname, resolve } from 'node:path';
import type { ApiConfig } from '../generators/core/config/config.js';
import { InputFiles } from '../generators/core/pipeline/input-files.js';

/** `$ref: ./x.yaml#/A`, `"$ref": "../common/x.json"`: the file part of a reference to another file. */
const FILE_REF = /["']?\$ref["']?\s*:\s*["']?([^"'#\s,}\]]+)/g;
/** Enough for any real schema split into files; bounds the work on a pathological one. */
const MAX_FILES = 500;

export function referencedFiles(apis: ApiConfig[]): string[] {
  const found = new Set<string>();
  for (const api of apis.filter((item) => item.style === 'openapi' || item.style === 'asyncapi')) {
    for (const file of referencedBy(api)) found.add(file);
  }
  return [...found];
}

/** Read as the loader reads: the inputs wherever they are, what they reach only inside the API's folders, within its size cap. */
function referencedBy(api: ApiConfig): string[] {
  const files = new InputFiles({
    roots: api.readRoots ?? [api.root],
    ...(api.maxInputBytes !== undefined ? { maxBytes: api.maxInputBytes } : {}),
  });
  const inputs = api.inputs;
  const seen = new Set<string>();
  const refused = new Set<string>(); // outside the API's folders, not a file, too big: not watched either
  const queue = [...inputs];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const read = inputs.includes(file) ? files.readNamed(file) : files.readReached(file);
    if (!read.ok) {
      if (read.refused) refused.add(file);
      continue;
    }
    const text = read.text;
    if (!text.includes('$ref')) continue;
    for (const [, target] of text.matchAll(FILE_REF)) {
      if (/^[a-z][a-z\d+.-]*:/i.test(target!)) continue; // a URL: nothing to watch on disk
      queue.push(resolve(dirname(file), decoded(target!)));
    }
  }
  const isInput = new Set(inputs);
  return [...seen].filter((file) => !isInput.has(file) && !refused.has(file));
}

/** References are URI references: `my%20file.yaml` is `my file.yaml`. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
