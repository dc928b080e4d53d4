/**
 * The README's list of templates, from the context declarations themselves: every
 * `generators/<style>/template-context.ts` declares one interface per template, tagged
 * `@template <style>/<file>.hbs`, with a JSDoc on the interface and on each property. Read with the
 * TypeScript parser (only tests run this), so the README cannot drift from what generators pass.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './cli.js';

export const README_TEMPLATES_BEGIN =
  '<!-- templates:begin (generated from generators/*/template-context.ts; test/template-docs.test.ts) -->';
export const README_TEMPLATES_END = '<!-- templates:end -->';

export interface TemplateDoc {
  /** `openapi/client.ts.hbs` */
  template: string;
  /** The interface's name, e.g. `ClientContext`. */
  context: string;
  /** Where it is declared, relative to the repository. */
  declaredIn: string;
  description: string;
  /** Interfaces it extends that are declared elsewhere (those of the same file have their fields listed). */
  extends: string[];
  fields: { name: string; optional: boolean; type: string; description: string }[];
}

/** The styles with templates: the folders of templates/ other than partials. */
export function templateStyles(): string[] {
  return readdirSync(join(ROOT, 'templates'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'partials')
    .map((entry) => entry.name)
    .sort();
}

/** Every built-in template of a style (`openapi/client.ts.hbs`, …). */
export function builtinTemplates(): string[] {
  return templateStyles().flatMap((style) =>
    readdirSync(join(ROOT, 'templates', style))
      .filter((file) => file.endsWith('.hbs'))
      .sort()
      .map((file) => `${style}/${file}`),
  );
}

/** The context declarations of every style's `template-context.ts`. */
export function templateDocs(): TemplateDoc[] {
  const folders = readdirSync(join(ROOT, 'generators'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const docs: TemplateDoc[] = [];
  for (const folder of folders) {
    const declaredIn = `generators/${folder.name}/template-context.ts`;
    const path = join(ROOT, declaredIn);
    if (!existsSync(path)) continue;
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const interfaces = new Map(
      source.statements.filter(ts.isInterfaceDeclaration).map((declaration) => [declaration.name.text, declaration]),
    );
    // A context's fields, those of the interfaces it extends in the same file first.
    const fieldsOf = (declaration: ts.InterfaceDeclaration): TemplateDoc['fields'] => [
      ...baseNames(declaration, source).flatMap((name) => (interfaces.has(name) ? fieldsOf(interfaces.get(name)!) : [])),
      ...declaration.members.filter(ts.isPropertySignature).map((member) => ({
        name: member.name.getText(source),
        optional: member.questionToken !== undefined,
        type: member.type ? oneLine(member.type.getText(source)) : 'unknown',
        description: jsDocText(member),
      })),
    ];
    for (const statement of interfaces.values()) {
      // `@template` is also TypeScript's tag for type parameters, which would split `openapi/x.hbs`: read the raw text.
      const jsDocs = (statement as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
      const template = jsDocs.map((doc) => /@template\s+(\S+)/.exec(doc.getText(source))?.[1]).find((found) => found !== undefined);
      if (!template) continue;
      docs.push({
        template,
        context: statement.name.text,
        declaredIn,
        description: jsDocText(statement),
        extends: baseNames(statement, source).filter((name) => !interfaces.has(name)),
        fields: fieldsOf(statement),
      });
    }
  }
  return docs.sort((a, b) => (a.template < b.template ? -1 : 1));
}

/** A type as one line, whatever the formatter made of it: no line breaks, no padding inside brackets, no trailing commas. */
function oneLine(type: string): string {
  return type
    .replace(/\s+/g, ' ')
    .replace(/,\s*([>)\]}])/g, '$1')
    .replace(/([<([]) /g, '$1')
    .replace(/ ([>)\]])/g, '$1');
}

function baseNames(declaration: ts.InterfaceDeclaration, source: ts.SourceFile): string[] {
  return (declaration.heritageClauses ?? []).flatMap((clause) => clause.types.map((type) => type.expression.getText(source)));
}

/** The README section: per template, what it renders and the context it gets. */
export function templatesMarkdown(docs = templateDocs()): string {
  const sections = docs.map((doc) => {
    const base = doc.extends.length ? ` It also gets the fields of ${doc.extends.map((name) => `\`${name}\``).join(', ')}.` : '';
    const rows = doc.fields.map(
      (field) => `| \`${field.name}${field.optional ? '?' : ''}\` | \`${escapeCell(field.type)}\` | ${escapeCell(field.description)} |`,
    );
    return [
      `#### \`${doc.template}\``,
      '',
      `${doc.description} Context: \`${doc.context}\` in \`${doc.declaredIn}\`.${base}`,
      '',
      '| field | type | holds |',
      '|---|---|---|',
      ...rows,
    ].join('\n');
  });
  return [README_TEMPLATES_BEGIN, '', ...sections.flatMap((section) => [section, '']), README_TEMPLATES_END].join('\n');
}

function jsDocText(node: ts.Node): string {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
  return docs
    .map((doc) => commentOf(doc.comment))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function commentOf(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string {
  if (comment === undefined) return '';
  return typeof comment === 'string' ? comment : comment.map((part) => part.text).join('');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
