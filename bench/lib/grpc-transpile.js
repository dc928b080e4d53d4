// Generated TypeScript → JavaScript for the gRPC benchmarks, as a build step would do it: every
// `.ts` under a folder is transpiled with the project's TypeScript (`transpileModule`, the options
// bench/lib/ts-hooks.js uses, without its inline source maps) into the same layout under another
// folder, so `./x_pb.js` imports resolve (`.js` files, e.g. generated validators, are copied as
// they are). The measured processes then run plain JS: no module hooks
// and no source-map handling (ts-register enables source maps, which makes every Error/
// DOMException a server creates per call more expensive than in production).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

export function transpileTree(source, target) {
  const ts = createRequire(import.meta.url)('../../node_modules/typescript/lib/typescript.js');
  rmSync(target, { recursive: true, force: true });
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const { outputText } = ts.transpileModule(readFileSync(path, 'utf8'), {
          fileName: path,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        });
        const out = join(target, relative(source, path)).replace(/\.ts$/, '.js');
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, outputText);
      } else if (entry.name.endsWith('.js')) {
        const out = join(target, relative(source, path));
        mkdirSync(dirname(out), { recursive: true });
        copyFileSync(path, out);
      }
    }
  };
  walk(source);
}
