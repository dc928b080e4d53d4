/** graphql-codegen plugin `server` (placeholder until written). */
import type { PluginFunction, Types } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLPluginConfig } from '../config.js';

/** The files under `runtime/` that this plugin's output imports. */
export function runtimeFiles(_schema: GraphQLSchema, _documents: Types.DocumentFile[]): string[] {
  return [];
}

export const plugin: PluginFunction<GraphQLPluginConfig, string> = () => '';
