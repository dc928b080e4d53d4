/**
 * Patterns matched by a scan of character codes instead of a regular expression
 * (generators/core/emit/validators/pattern-scan.ts): the scan must answer exactly as the
 * pattern's RegExp does, on texts built from the characters the pattern names and their
 * neighbours, and patterns whose meaning needs backtracking or more syntax must stay RegExps.
 */
import { describe, expect, it } from 'vitest';
import { scanStatements, scannableAtoms } from '../generators/core/emit/validators/pattern-scan.js';

function scanner(pattern: string): (text: string) => boolean {
  const atoms = scannableAtoms(pattern);
  if (!atoms) throw new Error(`${pattern} is not scannable`);
  return new Function('text', scanStatements(atoms).join('\n')) as (text: string) => boolean;
}

/** Every text up to `length` characters over `alphabet`, plus a few with other characters. */
function texts(alphabet: string[], length: number): string[] {
  const all = [''];
  let level = [''];
  for (let size = 1; size <= length; size++) {
    level = level.flatMap((text) => alphabet.map((char) => text + char));
    all.push(...level);
  }
  return [...all, 'é', 'a\n', '\na', '😀', 'a😀', '\u0000'];
}

const SCANNABLE: Array<[string, string[]]> = [
  ['^[a-z][a-z0-9-]*$', ['a', 'z', '0', '-', 'A', '_']],
  ['^#[0-9a-f]{6}$', ['#', '0', 'f', 'g', 'A']],
  ['^\\d{2,3}$', ['1', 'a', '9']],
  ['^[A-Z]{2}-\\d+$', ['A', 'Z', '-', '5', 'a']],
  ['^a?b+c{0,2}$', ['a', 'b', 'c', 'd']],
  ['^[-a]x[b-]$', ['-', 'a', 'x', 'b']],
  ['^\\w+\\.\\w+$', ['a', '_', '.', '-', '9']],
  ['^[\\-\\]\\\\]{1,}$', ['-', ']', '\\', 'a']],
  ['^$', ['a']],
  ['^ab{2,}c$', ['a', 'b', 'c']],
  ['^x{0}y$', ['x', 'y']],
  ['^[a-z]+-?[0-9]*\\.[a-z0-9]+$', ['a', '-', '1', '.']],
];

describe('pattern scan', () => {
  for (const [pattern, alphabet] of SCANNABLE) {
    it(`${pattern} answers as its RegExp does`, () => {
      const scan = scanner(pattern);
      const regex = new RegExp(pattern, 'u');
      for (const text of texts(alphabet, 5)) expect([text, scan(text)]).toEqual([text, regex.test(text)]);
    });
  }

  it('leaves patterns that need backtracking or other syntax to a RegExp', () => {
    for (const pattern of [
      '^[a-z]*[a-z]$', // the run could take the last letter
      '^a*a?$',
      '^\\d+[0-5]$',
      '^[a-z]+[0-9]?[a-z]$', // an optional atom between does not separate them
      '[a-z]+', // not anchored
      '^[a-z]+', // no end anchor
      '^(ab)+$', // a group
      '^a|b$', // alternatives
      '^[^a]$', // a negated class
      '^.$', // any character
      '^a+?$', // lazy
      '^\\s$', // Unicode spaces
      '^é$', // not ASCII
      '^[a-c-e]$', // read differently with and without the u flag
      '^a\\$',
      '^\\bx$',
    ]) {
      expect([pattern, scannableAtoms(pattern)]).toEqual([pattern, undefined]);
    }
  });
});
