/**
 * What every example server does the same way: read its settings from the environment, and stop
 * cleanly on SIGINT/SIGTERM (exit code 0), so `npm run example:<style>` can be driven from outside.
 */
import type { Server } from 'node:http';

/** A non-negative integer from the environment, or `fallback` when unset; anything else stops the example. */
export function setting(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
  return value;
}

/** Where a local front-end dev server (Vite's default port) runs: the examples' default `CORS_ORIGINS`. */
const DEV_ORIGINS = 'http://localhost:5173,http://127.0.0.1:5173';

/**
 * The browser origins allowed to call an example (`cors.origins`, the same option on every
 * generated server): `CORS_ORIGINS`, comma-separated exact origins or `scheme://*.host` patterns;
 * default the local dev server's. Set it empty to allow none.
 */
export function corsOrigins(): string[] {
  return (process.env.CORS_ORIGINS ?? DEV_ORIGINS)
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/**
 * The hardened listener's time limits (`createHttpServer`, the same in every example):
 * `HEADERS_TIMEOUT_MS` for the request head (default 20000), `REQUEST_TIMEOUT_MS` for the whole
 * request (default 60000); 408 and the connection closed after either.
 */
export function listenerLimits(): { headersTimeout: number; requestTimeout: number } {
  return { headersTimeout: setting('HEADERS_TIMEOUT_MS', 20_000), requestTimeout: setting('REQUEST_TIMEOUT_MS', 60_000) };
}

/**
 * On SIGINT or SIGTERM: `close()` first (what the API holds open: streams, WebSockets, timers),
 * then `server` stops accepting, in-flight requests finish and idle keep-alive connections close;
 * stragglers are cut after 5 s. Exits 0.
 */
export function stopOnSignals(example: string, server: Server | undefined, close: () => Promise<void> | void = () => {}): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.error(`${example}: ${signal}, closing`);
    const force = setTimeout(() => server?.closeAllConnections(), 5_000);
    force.unref();
    void Promise.resolve(close()).then(() => {
      if (!server) return process.exit(0);
      server.close(() => {
        clearTimeout(force);
        process.exit(0);
      });
      server.closeIdleConnections();
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
