#!/usr/bin/env node
// Thin launcher: the CLI is written in TypeScript and compiled to dist/ by `npm ci` (prepare).
import { main } from '../dist/bin/cli.js';

process.exitCode = await main(process.argv.slice(2));
