/**
 * Serves the generated browser client to a real browser without a bundler: the transpiled output
 * under `/app/`, the packages it imports straight from node_modules, and an import map from each
 * package's `exports` (its ESM build) so bare specifiers resolve as a bundler would resolve them.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { ROOT } from './cli.js';

const PACKAGES = ['@bufbuild/protobuf', '@connectrpc/connect', '@connectrpc/connect-web'];

/** `{ "@bufbuild/protobuf/wkt": "/node_modules/@bufbuild/protobuf/dist/esm/wkt/index.js", ... }` */
export function importMap(): Record<string, string> {
  const imports: Record<string, string> = {};
  for (const name of PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string } | string>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const file = typeof target === 'string' ? target : target.import;
      if (!file || subpath.includes('*') || subpath === './package.json') continue;
      imports[`${name}${subpath.slice(1)}`] = `/node_modules/${name}/${file.replace(/^\.\//, '')}`;
    }
  }
  return imports;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' };

/** A static server: `/` → `page`, `/app/*` → `folder`, `/node_modules/*` → the repository's. */
export async function servePage(folder: string, page: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page);
      return;
    }
    const [base, rest] = path.startsWith('/app/')
      ? [folder, path.slice(5)]
      : path.startsWith('/node_modules/')
        ? [join(ROOT, 'node_modules'), path.slice(14)]
        : [undefined, ''];
    const file = base && normalize(join(base, rest));
    if (!base || !file || !file.startsWith(base + sep)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
