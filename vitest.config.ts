import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql@16 ships an ESM build (`module`) beside its CommonJS `main`. Node itself, and so every
    // user of the CLI and of generated code, loads `main`; vite would give our sources the ESM build
    // while graphql-http, graphql-ws and graphql-codegen `require` the CommonJS one — two copies
    // that reject each other's schemas ("from another module or realm"). Tests load what Node loads.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // test/run.js runs the e2e files under Node 22 and 24 too; each worker checks it is on the one named.
    setupFiles: ['test/support/node-version.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
