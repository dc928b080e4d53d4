/**
 * graphql-codegen plugin `types`: `types.ts` of a GraphQL API. Every schema type under its GraphQL
 * name, printed by the type emitter all styles share; the arguments of each field
 * (`<Parent><Field>Args`); and `Resolvers<Context>`, the typed map a server implements.
 */
import type { PluginFunction } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import { isInterfaceType, isObjectType } from 'graphql';
import { FileBuilder } from '../../core/builder/file.js';
import { createTypeEmitter, type TypeEmitter } from '../../core/emit/types/emit.js';
import { jsDoc, jsDocLines } from '../../core/builder/names.js';
import { DEFAULT_SOURCE, type GraphQLPluginConfig } from '../config.js';
import { resolveMappers } from '../mappers.js';
import { declaredTypes, typesNames } from '../names.js';
import { renderer } from '../plugin-support.js';
import { resolverTypes } from '../resolvers.js';
import { argsSchema, schemaTypes } from '../schema-types.js';
import type { TypesContext } from '../template-context.js';

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, _documents, config) => {
  const mappers = resolveMappers(schema, config.mappers);
  const file = new FileBuilder('types.ts', typesNames(schema).taken);
  for (const mapper of mappers.imports) file.use(mapper.symbol, mapper.local);
  const types = createTypeEmitter(schemaTypes(schema, config.scalars));
  const resolvers = resolverTypes(schema, (node, indent) => types.typeOf(node, 'read', indent), mappers, file);
  const context: TypesContext = {
    source: config.source ?? DEFAULT_SOURCE,
    description: schema.description?.trim() ? `${jsDocLines([schema.description.trim()])} *\n` : '',
    imports: file.imports(),
    schemas: types.declarations().trimEnd(),
    args: argsDeclarations(schema, types),
    ...resolvers,
  };
  return renderer(config).render('graphql/types.ts.hbs', context);
};

/** `export interface QueryTaskArgs { ... }` for every field with arguments, by type name and field order. */
function argsDeclarations(schema: GraphQLSchema, types: TypeEmitter): string {
  const names = typesNames(schema);
  const blocks: string[] = [];
  for (const type of declaredTypes(schema)) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const name = names.args(type.name, field.name);
      if (name === undefined) continue;
      const doc = jsDoc([`Arguments of \`${type.name}.${field.name}\`.`]);
      blocks.push(`${doc}export interface ${name} ${types.typeOf(argsSchema(field), 'read')}`);
    }
  }
  return blocks.join('\n\n');
}
