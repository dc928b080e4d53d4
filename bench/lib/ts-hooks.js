// Module hooks that let plain Node 20 (which cannot strip types) run a TypeScript benchmark script
// such as bench/validators.ts in place: `.ts` files are transpiled with the project's own
// TypeScript (transpileModule: no type checking), and `./x.js` specifiers fall back to `./x.ts`,
// as NodeNext-style sources write them. Files keep their real URLs, so import.meta.url and
// import.meta.dirname inside them are unchanged. Registered by ts-register.js.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
let ts;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (relative && context.parentURL && /\.m?js$/.test(specifier)) {
      const candidate = new URL(specifier.replace(/\.(m?)js$/, '.$1ts'), context.parentURL);
      if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, shortCircuit: true };
    }
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!/\.m?ts$/.test(new URL(url).pathname) || url.endsWith('.d.ts')) return nextLoad(url, context);
  ts ??= require('../../node_modules/typescript/lib/typescript.js');
  const source = await readFile(fileURLToPath(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      sourceMap: false,
      inlineSourceMap: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
