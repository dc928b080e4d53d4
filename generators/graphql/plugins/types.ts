/**
 * graphql-codegen plugin `types`: `types.ts` of a GraphQL API. Every schema type under its GraphQL
 * name, printed by the type emitter all styles share; the arguments of each field
 * (`<Parent><Field>Args`); and `Resolvers<Context>`, the typed map a server implements.
 */
import type { PluginFunction } from '@graphql-codegen/plugin-helpers';
import type { GraphQLSchema } from 'graphql';
import { isInterfaceType, isObjectType } from 'graphql';
import { createTypeEmitter, type TypeEmitter } from '../../core/emit/types/emit.js';
import { jsDoc } from '../../core/builder/names.js';
import { DEFAULT_SOURCE, type GraphQLPluginConfig } from '../config.js';
import { resolveMappers } from '../mappers.js';
import { declaredTypes, typesNames } from '../names.js';
import { renderer } from '../plugin-support.js';
import { resolverTypes } from '../resolvers.js';
import { argsSchema, schemaTypes } from '../schema-types.js';

export const plugin: PluginFunction<GraphQLPluginConfig, string> = (schema, _documents, config) => {
  const mappers = resolveMappers(schema, config.mappers);
  const types = createTypeEmitter(schemaTypes(schema, config.scalars));
  const resolvers = resolverTypes(schema, (node, indent) => types.typeOf(node, 'read', indent), mappers);
  return renderer(config).render('graphql/types.ts.hbs', {
    source: config.source ?? DEFAULT_SOURCE,
    intro: intro(schema),
    imports: resolvers.imports,
    schemas: types.declarations().trimEnd(),
    args: argsDeclarations(schema, types),
    resolvers: resolvers.declarations,
  });
};

function intro(schema: GraphQLSchema): string {
  const about = 'The schema\'s types under their GraphQL names, the arguments of each field\n'
    + '(`<Type><Field>Args`), and `Resolvers<Context>`: the map a server implements.';
  return jsDoc([schema.description?.trim() ? `${schema.description.trim()}\n\n${about}` : about]);
}

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
