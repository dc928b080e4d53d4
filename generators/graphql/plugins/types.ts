/** graphql-codegen plugin `types` (placeholder until written). */
import type { PluginFunction } from '@graphql-codegen/plugin-helpers';
import type { GraphQLPluginConfig } from '../config.js';


export const plugin: PluginFunction<GraphQLPluginConfig, string> = () => '';
