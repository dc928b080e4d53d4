/**
 * graphql-codegen plugin `pubsub`: `pubsub.ts`, typed publish/subscribe for the schema's
 * `Subscription` fields over the runtime's `FanOut` (memory or Redis), written with `server.ts`
 * when the schema has such fields. Subscribe resolvers return `pubsub.<field>.subscribe(args)`.
 */
import type { PluginFunction } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import { runtimeFilesOf } from '../../core/pipeline/runtime-files.js';
import type { GraphQLPluginConfig } from '../config.js';
import { DEFAULT_SOURCE } from '../config.js';
import { renderer } from '../plugin-support.js';
import { pubsubContext, subscriptionFields } from '../pubsub.js';
import type { PubSubContext } from '../template-context.js';

/** The files under `runtime/` this plugin's output needs (see the `server` plugin's `runtimeFiles`). */
export async function runtimeFiles(schema: GraphQLSchema, _documents: unknown = [], config: GraphQLPluginConfig = {}): Promise<string[]> {
  return runtimeFilesOf({ path: 'pubsub.ts', content: await plugin(schema, [], config) });
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, _documents, config) => {
  if (subscriptionFields(schema).length === 0) throw new Error('codegen pubsub plugin: the schema has no Subscription fields');
  const { context: parts, file } = pubsubContext(schema);
  const context: PubSubContext = { source: config.source ?? DEFAULT_SOURCE, ...parts };
  return renderer(config).render('graphql/pubsub.ts.hbs', context, file);
};
