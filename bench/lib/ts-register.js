// `node --import ./bench/lib/ts-register.js script.ts`: installs ts-hooks.js (see there).
import { register } from 'node:module';

register('./ts-hooks.js', import.meta.url);
process.setSourceMapsEnabled?.(true);
