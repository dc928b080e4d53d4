/**
 * Handlebars rendering for every generated file. A user's `templates` folder may override any
 * template by its relative path (e.g. `openapi/client.ts.hbs`); the rest come from this package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { error } from '../diagnostics.js';
import { codegenVersion } from './version.js';

/** `templates/` of this package, found from both `generators/core` and `dist/generators/core`. */
export const BUILTIN_TEMPLATES = findBuiltinTemplates();

/** `runtime/` of this package: the TypeScript modules copied into every output that needs them. */
export const BUILTIN_RUNTIME = join(dirname(BUILTIN_TEMPLATES), 'runtime');

function findBuiltinTemplates(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'templates', 'partials'))) return join(dir, 'templates');
    dir = dirname(dir);
  }
  throw new Error('codegen: cannot find its templates/ folder');
}

export interface HeaderInfo {
  /** Input file the output was generated from, relative to the config folder. */
  source: string;
}

export class TemplateRenderer {
  private readonly handlebars = Handlebars.create();
  private readonly cache = new Map<string, Handlebars.TemplateDelegate>();

  /** @param overrides folder whose files replace built-in templates of the same relative path */
  constructor(private readonly overrides?: string) {
    // Values printed into a `//` comment must stay on one line, or they would become code.
    this.handlebars.registerHelper('oneLine', (text: unknown) => String(text).replace(/[\r\n\u2028\u2029]+/g, ' '));
    // Runtime files are the same for every API: their header names codegen's version, not a schema.
    this.handlebars.registerHelper('codegenVersion', () => codegenVersion());
    this.handlebars.registerPartial('header', this.read('partials/header.hbs'));
    this.handlebars.registerPartial('runtime-header', this.read('partials/runtime-header.hbs'));
  }

  /** Renders `name` (e.g. `openapi/types.ts.hbs`) with `context`; output ends with one newline. */
  render(name: string, context: object): string {
    let template = this.cache.get(name);
    if (!template) {
      // Generated code, not HTML: escaping is done by generators/core/builder/names.ts, not by Handlebars.
      template = this.handlebars.compile(this.read(name), { noEscape: true, strict: true });
      this.cache.set(name, template);
    }
    return `${template(context)
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd()}\n`;
  }

  /**
   * The runtime module `runtime/<name>.ts` as written into an output: the runtime header, then the
   * module as it is. A user's `templates` folder may replace it with its own `runtime/<name>.ts`.
   */
  runtime(name: string): string {
    const file = `${name}.ts`;
    const path = this.runtimeOverride(name) ?? join(BUILTIN_RUNTIME, file);
    if (!existsSync(path)) throw error(`no runtime module named runtime/${file}`);
    return `${this.render('partials/runtime-header.hbs', {}).trimEnd()}\n${readFileSync(path, 'utf8')}`;
  }

  /** The user's `runtime/<name>.ts` that replaces the built-in module, if there is one. */
  runtimeOverride(name: string): string | undefined {
    const overridden = this.overrides ? resolve(this.overrides, 'runtime', `${name}.ts`) : undefined;
    return overridden && existsSync(overridden) ? overridden : undefined;
  }

  private read(name: string): string {
    if (this.overrides) {
      const overridden = resolve(this.overrides, name);
      if (existsSync(overridden)) return readFileSync(overridden, 'utf8');
    }
    const builtin = join(BUILTIN_TEMPLATES, name);
    if (!existsSync(builtin)) throw error(`no template named ${name}`);
    return readFileSync(builtin, 'utf8');
  }
}
