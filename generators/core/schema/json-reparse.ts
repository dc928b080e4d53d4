/**
 * JSON inputs parsed again after an edit (`codegen --watch`): only the value the edit lies in is
 * parsed, and spliced into the previous parse. A one-schema save of GitHub's 13 MB description
 * parses one schema instead of the whole text, and every value the edit leaves alone keeps its
 * object, so the next steps see the same objects as last time.
 *
 * The result is JSON.parse's: the new text is the old one with the value at one pointer replaced
 * (the edit lies inside that value's span, everything before and after it is the same text), the
 * old text was valid JSON, and the new value's text parses, so the new text is valid JSON whose
 * data is the old data with that value replaced. Anything else (an edit across values, a new text
 * that does not parse) is a full JSON.parse, which reports what is wrong.
 */
import { INDEXED_DEPTH, JsonPositions, setOwn, type JsonIndex, type JsonParses, type JsonSpan } from './json-documents.js';

/** The last parse of a file: its text, its data, and its positions (whose index, once built, the next edit moves). */
interface Parsed {
  text: string;
  data: unknown;
  positions: JsonPositions;
}

/** One watch process's last parse of each JSON input, by absolute path. */
export class JsonReparse implements JsonParses {
  #last = new Map<string, Parsed>();

  /** `text` parsed (throws as JSON.parse does), and its positions. */
  parse(path: string, text: string): { data: unknown; positions: JsonPositions } {
    const previous = this.#last.get(path);
    const parsed = (previous && (previous.text === text ? previous : spliced(previous, text))) ?? {
      text,
      data: JSON.parse(text),
      positions: new JsonPositions(text),
    };
    this.#last.set(path, parsed);
    return { data: parsed.data, positions: parsed.positions };
  }
}

/** `text` parsed by replacing, in `previous`, the deepest indexed value that holds the whole edit; undefined when none does or it does not parse. */
function spliced(previous: Parsed, text: string): Parsed | undefined {
  const old = previous.text;
  const start = commonPrefix(old, text);
  const tail = commonSuffix(old, text, Math.min(old.length, text.length) - start);
  const oldEnd = old.length - tail;
  const delta = text.length - old.length;
  const index = previous.positions.spans();
  let span: JsonSpan | undefined;
  for (const candidate of index.values()) {
    if (candidate.value <= start && oldEnd <= candidate.end && (!span || candidate.parts.length > span.parts.length)) span = candidate;
  }
  if (!span) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(span.value, span.end + delta));
  } catch {
    return undefined;
  }
  const data = replaced(previous.data, span.parts, 0, value);
  if (data === undefined) return undefined;
  return { text, data, positions: new JsonPositions(text, shifted(index, span, text, delta)) };
}

/** A copy of `data` with the value at `parts` (from `i`) replaced; undefined when it is not there. */
function replaced(data: unknown, parts: string[], i: number, value: unknown): unknown {
  if (i === parts.length) return value;
  const part = parts[i] as string;
  if (Array.isArray(data)) {
    const at = Number(part);
    if (!(at < data.length)) return undefined;
    const inner = replaced(data[at], parts, i + 1, value);
    if (inner === undefined) return undefined;
    const copy = data.slice();
    copy[at] = inner;
    return copy;
  }
  if (data === null || typeof data !== 'object' || !Object.prototype.hasOwnProperty.call(data, part)) return undefined;
  const inner = replaced((data as Record<string, unknown>)[part], parts, i + 1, value);
  if (inner === undefined) return undefined;
  // Spread keeps the key order and an own `__proto__`; setOwn writes one as a key, not the prototype.
  const copy = { ...(data as Record<string, unknown>) };
  setOwn(copy, part, inner);
  return copy;
}

/** The index of the new text: spans after the edit move by `delta`, those holding it grow, the replaced value's are found again. */
function shifted(index: JsonIndex, replacedSpan: JsonSpan, text: string, delta: number): JsonIndex {
  const next: JsonIndex = new Map();
  const { value: from, end: to } = replacedSpan;
  const inside = (span: JsonSpan) => span !== replacedSpan && span.value >= from && span.end <= to;
  for (const [pointer, span] of index) {
    if (inside(span)) continue;
    if (span.value >= to) next.set(pointer, { ...span, key: span.key + delta, value: span.value + delta, end: span.end + delta });
    else if (span.end >= to) next.set(pointer, { ...span, end: span.end + delta });
    else next.set(pointer, span);
  }
  if (replacedSpan.parts.length < INDEXED_DEPTH) new JsonPositions(text).indexed(from, replacedSpan.parts, next);
  return next;
}

/** Length of the longest common prefix, compared a block at a time natively, then character by character. */
function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= limit && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the longest common suffix, at most `limit`. */
function commonSuffix(a: string, b: string, limit: number): number {
  let j = 0;
  while (j + BLOCK <= limit && a.slice(a.length - j - BLOCK, a.length - j) === b.slice(b.length - j - BLOCK, b.length - j)) j += BLOCK;
  while (j < limit && a.charCodeAt(a.length - 1 - j) === b.charCodeAt(b.length - 1 - j)) j++;
  return j;
}

const BLOCK = 1 << 16;
