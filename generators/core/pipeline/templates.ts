/**
 * Handlebars rendering for every generated file. A user's `templates` folder may override any
 * template by its relative path (e.g. `openapi/client.ts.hbs`); the rest come from this package.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Handlebars from 'handlebars';
import { runtimeSymbol, symbol, type FileBuilder } from '../builder/file.js';
import { error } from '../diagnostics.js';
import { BUILTIN_RUNTIME, BUILTIN_TEMPLATES } from './package-folders.js';
import { codegenVersion } from './version.js';

export { BUILTIN_RUNTIME, BUILTIN_TEMPLATES } from './package-folders.js';

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
    // `{{runtime "Name"}}` (`from="module"` when several modules declare it, `type=true` for a class
    // used as a type): a runtime export the template's own code prints, imported through the file's
    // builder under the name it gets there. `{{importBlock}}` and `{{exportBlock}}` mark where the
    // file's import and re-export blocks go; they are filled in once the whole template has rendered.
    this.handlebars.registerHelper('runtime', (name: string, options: Handlebars.HelperOptions) => {
      const { from, type } = options.hash as { from?: string; type?: boolean };
      const found = runtimeSymbol(name, from);
      return fileOf(options, `{{runtime "${name}"}}`).use(type ? { ...found, type: true } : found);
    });
    // `{{import "Name" from="package" type=true}}`: the same for a package's export (`node:http`,
    // `@bufbuild/protobuf`) or a generated module's (`from="./types"`; `verbatim=true` keeps a path as written).
    this.handlebars.registerHelper('import', (name: string, options: Handlebars.HelperOptions) => {
      const { from, type, verbatim } = options.hash as { from?: string; type?: boolean; verbatim?: boolean };
      if (!from) throw error(`{{import "${name}"}} needs from="<module>"`);
      return fileOf(options, `{{import "${name}"}}`).use(symbol(name, from, { type: type === true, verbatim: verbatim === true }));
    });
    this.handlebars.registerHelper(
      'importBlock',
      (options: Handlebars.HelperOptions) => (fileOf(options, '{{importBlock}}'), IMPORTS_MARK),
    );
    this.handlebars.registerHelper(
      'exportBlock',
      (options: Handlebars.HelperOptions) => (fileOf(options, '{{exportBlock}}'), EXPORTS_MARK),
    );
    this.handlebars.registerPartial('header', this.read('partials/header.hbs'));
    this.handlebars.registerPartial('runtime-header', this.read('partials/runtime-header.hbs'));
  }

  /**
   * Renders `name` (e.g. `openapi/types.ts.hbs`) with `context`; output ends with one newline. With
   * `file`, the template may name runtime exports (`{{runtime}}`) and place the file's imports.
   */
  render(name: string, context: object, file?: FileBuilder): string {
    let template = this.cache.get(name);
    if (!template) {
      // Generated code, not HTML: escaping is done by generators/core/builder/names.ts, not by Handlebars.
      template = this.handlebars.compile(this.read(name), { noEscape: true, strict: true });
      this.cache.set(name, template);
    }
    let text = template(context, { data: { file } });
    if (file) text = text.replace(IMPORTS_MARK, () => file.imports()).replace(EXPORTS_MARK, () => file.exports());
    return `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
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

  /**
   * Every file of the user's `templates` folder with its text ('' without one): what rendering
   * reads besides the built-in templates, which do not change while codegen runs. `--watch` scopes
   * its memo by it, so editing an override renders anew.
   */
  overridesKey(): string {
    if (!this.overrides || !existsSync(this.overrides)) return '';
    return readdirSync(this.overrides, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((name) => join(this.overrides as string, name))
      .filter((path) => statSync(path).isFile())
      .map((path) => `${path}\u0000${readFileSync(path, 'utf8')}`)
      .join('\u0000');
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

const IMPORTS_MARK = '\u0000codegen:imports\u0000';
const EXPORTS_MARK = '\u0000codegen:exports\u0000';

/** The file builder a template is rendered into, for the helpers that import through it. */
function fileOf(options: Handlebars.HelperOptions, helper: string): FileBuilder {
  const file = (options.data as { file?: FileBuilder } | undefined)?.file;
  if (!file) throw error(`${helper} is used in a template rendered without a file builder`);
  return file;
}
