/** What every codegen GraphQL plugin needs: a template renderer for its config, made once. */
import { TemplateRenderer } from '../core/pipeline/templates.js';
import type { GraphQLPluginConfig } from './config.js';

const renderers = new Map<string, TemplateRenderer>();

/** The renderer for `config.templates` (the built-in templates when unset), cached per folder. */
export function renderer(config: GraphQLPluginConfig): TemplateRenderer {
  const key = config.templates ?? '';
  let found = renderers.get(key);
  if (!found) {
    found = new TemplateRenderer(config.templates);
    renderers.set(key, found);
  }
  return found;
}
