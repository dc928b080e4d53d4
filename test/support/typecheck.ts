import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './cli.js';
import { tempDir } from './tmp.js';

export const COMPILERS = {
  'TypeScript 5.9': join(ROOT, 'node_modules/typescript/bin/tsc'),
  'TypeScript 7': join(ROOT, 'node_modules/typescript7/bin/tsc'),
} as const;

/**
 * Settings many teams turn on beyond `strict` (the strictest common tsconfig bases): generated code
 * must compile under each of them, so the type-checks of out/ and of the corpus outputs use them all.
 */
export const STRICTEST = {
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  useUnknownInCatchVariables: true,
  verbatimModuleSyntax: true,
} as const;

/** `browser`: DOM only; `node`: @types/node only; `node+dom`: both, as a default `lib` gives. */
export type Environment = 'browser' | 'node' | 'node+dom';

/**
 * Type-checks every .ts file under `folder` as a user's strict project would: ESM with NodeNext
 * resolution, and either the DOM library (browsers) or @types/node (servers), not both;
 * `extraOptions` are the settings beyond `strict`: STRICTEST unless a test asks for others.
 */
export function typecheck(
  folder: string,
  compiler: string,
  environment: Environment = 'browser',
  files = ['**/*.ts'],
  extraOptions: Partial<Record<keyof typeof STRICTEST, boolean>> = STRICTEST,
): { ok: boolean; output: string } {
  // A user's project is ESM: a scratch folder gets the package.json that says so, as such a
  // project has (verbatimModuleSyntax rejects ESM syntax in files Node would load as CommonJS).
  if (folder.startsWith(tmpdir()) && !hasPackageJson(folder)) {
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
  }
  // The config lives in a temp folder so the checked folder (often the committed out/) stays clean.
  const config = join(tempDir('codegen-tsc-'), `tsconfig.${environment.replace('+', '-')}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: environment === 'node' ? ['ES2022'] : ['ES2022', 'DOM', 'DOM.Iterable'],
        types: environment === 'browser' ? [] : ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        noUnusedLocals: true,
        noUnusedParameters: true,
        noImplicitOverride: true,
        exactOptionalPropertyTypes: false,
        skipLibCheck: true,
        ...extraOptions,
      },
      include: files.map((file) => join(folder, file)),
    }),
  );
  const result = spawnSync(process.execPath, [compiler, '-p', config], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** Whether `folder` or a folder above it, up to the temp root, has a package.json. */
function hasPackageJson(folder: string): boolean {
  for (let dir = folder; dir.startsWith(tmpdir()) && dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return true;
  }
  return false;
}
