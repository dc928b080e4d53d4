/**
 * Generates what a user gets for an OpenAPI file with the client enabled (`types.ts`,
 * `validators.ts` when the validator emitter is available, `client.ts`, `runtime/*`) into a
 * folder, and turns it into importable JavaScript.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import ts from 'typescript';
import { createTypeEmitter } from '../../generators/core/emit-types.js';
import { commentText } from '../../generators/core/names.js';
import type { GeneratedFile } from '../../generators/core/output.js';
import { TemplateRenderer } from '../../generators/core/templates.js';
import { emitClient } from '../../generators/openapi/client.js';
import { loadOpenApi } from '../../generators/openapi/load.js';
import { emitOperationTypes } from '../../generators/openapi/operation-types.js';
import { ROOT } from './cli.js';

interface ValidatorCode {
  typeImports: string[];
  runtimeImports?: string[];
  code: string;
}

interface ValidatorEmitter {
  emitValidators(schemas: unknown, options: { typeName: (name: string, direction: 'read' | 'write') => string }): ValidatorCode;
  validatorImports?(result: ValidatorCode, from: { types: string; runtime: string }): string;
}

/** The validator emitter, when it has landed (it is written in parallel with the client). */
async function validatorEmitter(): Promise<ValidatorEmitter | undefined> {
  if (!existsSync(join(ROOT, 'generators/core/emit-validators.ts'))) return undefined;
  const path = '../../generators/core/emit-validators.js';
  return (await import(/* @vite-ignore */ path)) as ValidatorEmitter;
}

/**
 * The files `codegen` writes for `input` (absolute, or relative to the repository) with types,
 * validators (when available) and the client.
 */
export async function generateClientFiles(input: string, options: { validators?: boolean } = {}): Promise<GeneratedFile[]> {
  const model = await loadOpenApi(isAbsolute(input) ? input : join(ROOT, input), { displayRoot: ROOT });
  const templates = new TemplateRenderer();
  const types = createTypeEmitter(model.schemas);
  const source = model.source;
  const files: GeneratedFile[] = [
    {
      path: 'types.ts',
      content: templates.render('openapi/types.ts.hbs', {
        source,
        title: commentText(model.title),
        version: commentText(model.version),
        schemas: types.declarations(),
        operations: emitOperationTypes(model, types),
      }),
    },
  ];
  const validators = options.validators === false ? undefined : await validatorEmitter();
  if (validators) {
    const emitted = validators.emitValidators(model.schemas, { typeName: types.typeName });
    // The emitter knows which runtime helpers its code calls; use its import lines when it offers them.
    const content = validators.validatorImports
      ? `${templates.render('partials/header.hbs', { source })}${validators.validatorImports(emitted, { types: './types.js', runtime: './runtime/validation.js' })}\n${emitted.code.trimEnd()}\n`
      : templates.render('openapi/validators.ts.hbs', { source, typeImports: emitted.typeImports, code: emitted.code });
    files.push(
      { path: 'validators.ts', content },
      { path: 'runtime/validation.ts', content: templates.render('runtime/validation.ts.hbs', { source }) },
    );
  }
  files.push(...emitClient(model, types, templates, { source, validators: validators !== undefined }));
  return files;
}

export function writeFiles(folder: string, files: GeneratedFile[]): void {
  rmSync(folder, { recursive: true, force: true });
  for (const file of files) {
    const path = join(folder, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
}

/** Transpiles every `.ts` under `folder` to `.js` beside it (ES2022 modules), for `import()`. */
export function transpileFolder(folder: string): void {
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const output = ts.transpileModule(readFileSync(path, 'utf8'), {
      fileName: relative(folder, path),
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(path.replace(/\.ts$/, '.js'), output.outputText);
  }
}

/** Positions (`line:column`) of every `any` type in a TypeScript source. */
export function anyTypes(source: string): string[] {
  const file = ts.createSourceFile('file.ts', source, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line, character } = file.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${line + 1}:${character + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
