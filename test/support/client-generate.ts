/**
 * Generates what a user gets for an OpenAPI file with the client enabled (`types.ts`,
 * `validators.js`, `client.ts`, `runtime/*`) into a folder, and turns it into importable JavaScript.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import type { GeneratedFile } from '../../generators/core/pipeline/output.js';
import { generateFiles } from './generate.js';

/** The files `codegen` writes for `input` with types, validators and the client. */
export function generateClientFiles(input: string): Promise<GeneratedFile[]> {
  return generateFiles(input, ['types', 'validators', 'client']);
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
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
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
