#!/usr/bin/env node
// Thin launcher: the CLI is written in TypeScript and compiled to dist/ (by `npm ci` here, by
// `prepack` for the published package).
import { main } from '../dist/bin/cli.js';

// `codegen --help | head`: a reader that stops early is not an error.
process.stdout.on('error', (cause) => {
  if (cause.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw cause;
});

process.exitCode = await main(process.argv.slice(2));
