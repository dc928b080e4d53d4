/**
 * Deterministic sample values for the mock handlers of the GraphQL and proto styles: every value
 * is a function of the seed and a key naming its place (`Query.task(id:"1").title`), so the same
 * seed answers the same data in every run and on every path that reaches the same place, with no
 * state kept between requests. Each value is drawn from the bits of its key's hash (seeded-random.ts).
 */

const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'falcon', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen'];

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** 2026-01-01T00:00:00Z: sample instants fall in the year after it. */
const EPOCH_MS = Date.UTC(2026, 0, 1);

/** An instant in 2026 as epoch milliseconds, whole seconds. */
export function sampleInstantMs(hash: number): number {
  return EPOCH_MS + (hash % (365 * 86_400)) * 1000;
}

/** A UUID-shaped (version 4 layout) hex string from the hash. */
function sampleUuid(hash: number): string {
  const hex = (value: number) => (value >>> 0).toString(16).padStart(8, '0');
  const text = hex(hash) + hex(Math.imul(hash, 0x9e3779b1)) + hex(Math.imul(hash, 0x85ebca6b)) + hex(Math.imul(hash, 0xc2b2ae35));
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-4${text.slice(13, 16)}-a${text.slice(17, 20)}-${text.slice(20, 32)}`;
}

/**
 * A string for a field called `name` (GraphQL or proto, any case style): e-mail addresses, URLs,
 * ids, names and titles look like what they are, the rest is two words.
 */
export function sampleString(fieldName: string, hash: number): string {
  const lower = fieldName.toLowerCase();
  const word = WORDS[hash % WORDS.length] ?? 'alpha';
  const other = WORDS[(hash >>> 8) % WORDS.length] ?? 'bravo';
  const number = (hash >>> 16) % 1000;
  if (lower.includes('email')) return `${word}.${other}${number}@example.com`;
  if (/(url|uri|href|link|website)$/.test(lower)) return `https://example.com/${word}/${number}`;
  if (/(^|_)id$|Id$/.test(fieldName) || lower === 'uuid') return `${word}-${number}`;
  if (lower.includes('token') || lower.includes('cursor')) return '';
  if (lower.includes('phone')) return `+1-555-${String(number).padStart(4, '0')}`;
  if (/(name|title|label)$/.test(lower)) return `${capitalized(word)} ${capitalized(other)}`;
  return `${word} ${other}`;
}

/** A JSON-compatible sample for a scalar known only by its name (GraphQL custom scalars). */
export function sampleNamedScalar(scalarName: string, fieldName: string, hash: number): unknown {
  const lower = scalarName.toLowerCase();
  const instant = sampleInstantMs(hash);
  if (/datetime|timestamp|instant|zoned/.test(lower)) return new Date(instant).toISOString();
  if (lower === 'date' || lower === 'localdate') return new Date(instant).toISOString().slice(0, 10);
  if (lower === 'time' || lower === 'localtime') return new Date(instant).toISOString().slice(11, 19);
  if (lower.includes('uuid')) return sampleUuid(hash);
  if (/url|uri/.test(lower)) return sampleString('url', hash);
  if (lower.includes('email')) return sampleString('email', hash);
  if (/bigint|long|int64/.test(lower)) return String(hash % 1_000_000);
  if (/decimal|money|bigdecimal/.test(lower)) return ((hash % 100_000) / 100).toFixed(2);
  if (/json|object|map/.test(lower)) return { [WORDS[hash % WORDS.length] ?? 'alpha']: sampleString('', hash) };
  if (lower.includes('html')) return `<p>${sampleString('', hash)}</p>`;
  return sampleString(fieldName, hash);
}
