/**
 * The per-style options listed for people, from the same declarations the config is checked
 * against: a short block for `codegen --help`, and the README's table (test/config-options.test.ts
 * compares the README with it, so the two cannot drift).
 */
import { STYLES } from './input-style.js';
import { typeText } from './option-types.js';
import { STYLE_OPTIONS } from './style-options.js';

export const README_OPTIONS_BEGIN =
  '<!-- options:begin (generated from generators/*/config-options.ts; test/config-options.test.ts checks it) -->';
export const README_OPTIONS_END = '<!-- options:end -->';

/** `--help`'s listing: per style, each option with its type and description. */
export function optionsHelp(): string {
  const lines = ['', "Options per style (an API's `options:` in the config):"];
  for (const style of STYLES) {
    lines.push(`  ${style}`);
    for (const [name, declaration] of Object.entries(STYLE_OPTIONS[style])) {
      lines.push(`    ${name}: ${typeText(declaration)}`, `        ${declaration.description}`);
    }
  }
  return lines.join('\n');
}

/** The README's table, between its markers. */
export function optionsMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = STYLES.flatMap((style) =>
    Object.entries(STYLE_OPTIONS[style]).map(
      ([name, declaration]) => `| ${style} | \`${name}\` | \`${cell(typeText(declaration))}\` | ${cell(declaration.description)} |`,
    ),
  );
  return [README_OPTIONS_BEGIN, '| style | option | value | what |', '|---|---|---|---|', ...rows, README_OPTIONS_END].join('\n');
}
