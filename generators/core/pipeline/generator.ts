/**
 * The contract between the pipeline and a style's generator (generators/<style>/index.ts): what it
 * gets and what it returns. The registry of generators by style is generators/styles.ts.
 */
import type { ApiConfig } from '../config/config.js';
import type { InputStyle } from '../config/input-style.js';
import type { Diagnostic } from '../diagnostics.js';
import type { GeneratedFile } from './output.js';
import type { ScopedMemo } from './run-memo.js';
import type { TemplateRenderer } from './templates.js';

/** What a style's generator gets: its API's config (options typed by style) and the template renderer. */
export interface GeneratorContext<S extends InputStyle = InputStyle> {
  api: ApiConfig<S>;
  templates: TemplateRenderer;
  /** The previous run's results by content key, under `--watch`; a generator may keep its costly parts there. */
  memo?: ScopedMemo;
}

/** What a style generator produces: files in the output folder, and user-owned files elsewhere. */
export interface Generated {
  files: GeneratedFile[];
  userFiles?: { file: string; content: string }[];
  /** Problems worth fixing that do not stop generation (schema lint); the CLI prints them. */
  warnings?: Diagnostic[];
}

export type StyleGenerator<S extends InputStyle = InputStyle> = (context: GeneratorContext<S>) => Promise<Generated>;
