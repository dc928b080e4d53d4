/**
 * Style-independent entries of an API's `options` in the config, read the same way by every
 * generator that supports them.
 */
import { CodegenError } from './diagnostics.js';

/**
 * The API's `options.redis` (default false); anything but a boolean is a configuration mistake.
 * Used by the OpenAPI and AsyncAPI servers.
 */
export function redisOption(options: Record<string, unknown>): boolean {
  const value = options.redis;
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw new CodegenError({ severity: 'error', message: `options.redis must be true or false, not ${JSON.stringify(value)}`, hint: 'redis: true also writes the Redis implementations of the shared stores' });
}
