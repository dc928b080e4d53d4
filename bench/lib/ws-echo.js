// What both sides of the `ws-server` benchmark agree on: the path, and the messages the clients send.
// A message is `{"type":"echo","seq":<n>,"text":"..."}`, ~120 bytes of JSON as JSON.stringify writes
// it, so an echo that went through JSON.parse + JSON.stringify is byte-identical to what was sent.

export const WS_PATH = '/echo';

const TEXT = 'The quick brown fox jumps over the lazy dog; a benchmark message of about 120 bytes.';

/** The text of message `seq`. */
export function echoMessage(seq) {
  return JSON.stringify({ type: 'echo', seq, text: TEXT });
}

const KEYS = new Set(['type', 'seq', 'text']);

/** The check a generated validator would run for the `echo` message (yes/no pass, then collecting). */
export function checkEchoMessage(value, errors) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors?.add('', 'type', 'must be object');
    return false;
  }
  let ok = true;
  if (value.type !== 'echo') {
    errors?.add('/type', 'enum', 'must be echo');
    ok = false;
  }
  if (!(typeof value.seq === 'number' && Number.isInteger(value.seq) && value.seq >= 0)) {
    errors?.add('/seq', 'type', 'must be an integer ≥ 0');
    ok = false;
  }
  if (!(typeof value.text === 'string' && value.text.length >= 1 && value.text.length <= 2000)) {
    errors?.add('/text', 'type', 'must be a string of 1 to 2000 characters');
    ok = false;
  }
  for (const key in value) {
    if (!KEYS.has(key)) {
      errors?.add(`/${key}`, 'additionalProperties', 'is not allowed');
      ok = false;
    }
  }
  return ok;
}
