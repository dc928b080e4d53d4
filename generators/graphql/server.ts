/**
 * What templates/graphql/server.ts.hbs prints: the schema's SDL (built into an executable schema
 * once, at start-up), the `@auth` roles and field rules, and whether registered operations exist.
 */
import type { Types } from '@graphql-codegen/plugin-helpers';
import { Kind, printSchema, type GraphQLSchema } from 'graphql';
import { stringLiteral } from '../core/builder/names.js';
import { authModel } from './server-auth.js';

export interface ServerTemplateContext {
  /** `"line",` per line of the SDL. */
  sdlLines: string[];
  /** The role names as literals, lowest first; empty without `@auth`. */
  roles: string[];
  /** `"Type.field": "ROLE"` entries. */
  fieldRoles: Array<{ key: string; role: string }>;
  /** Whether operations.ts exists (it does when there are operation documents). */
  persisted: boolean;
}

export function serverContext(schema: GraphQLSchema, documents: Types.DocumentFile[]): ServerTemplateContext {
  const auth = authModel(schema);
  return {
    sdlLines: printSchema(schema).split('\n').map(stringLiteral),
    roles: (auth?.roles ?? []).map(stringLiteral),
    fieldRoles: (auth?.fields ?? []).map(({ path, role }) => ({ key: stringLiteral(path), role: stringLiteral(role) })),
    persisted: documents.some((file) => file.document?.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION)),
  };
}
