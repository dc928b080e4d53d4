/**
 * The `@auth(requires: Role)` rules of a schema, decided at generation time (printSchema drops
 * applied directives, so the server cannot read them from its embedded SDL): the roles in the
 * enum's declaration order, lowest first, and the role each object field needs. A field's own
 * `@auth` wins over its interface field's, which wins over `@auth` on its type.
 */
import {
  getDirectiveValues,
  getNullableType,
  isEnumType,
  isIntrospectionType,
  isObjectType,
  type DirectiveNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

export const AUTH_DIRECTIVE = 'auth';

export interface AuthModel {
  /** Lowest first; each includes the ones before it. */
  roles: string[];
  /** `Type.field` → role, in schema order. */
  fields: Array<{ path: string; role: string }>;
}

/** The rules, or undefined when the schema declares no `@auth` directive. */
export function authModel(schema: GraphQLSchema): AuthModel | undefined {
  const directive = schema.getDirective(AUTH_DIRECTIVE);
  if (!directive) return undefined;
  const argument = directive.args.find((arg) => arg.name === 'requires');
  const roleType = argument && getNullableType(argument.type);
  if (!isEnumType(roleType)) {
    throw new Error('codegen server plugin: `@auth` needs an argument `requires` whose type is an enum of roles, lowest first');
  }
  const roles = roleType.getValues().map((value) => value.name);
  const roleOf: RoleOf = (node) => {
    if (!node) return undefined;
    const values = getDirectiveValues(directive, node);
    if (!values) return undefined;
    return typeof values.requires === 'string' ? values.requires : roles[0];
  };
  const fields: AuthModel['fields'] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || isIntrospectionType(type)) continue;
    const typeRole = [type.astNode, ...type.extensionASTNodes].map(roleOf).find((role) => role !== undefined);
    for (const field of Object.values(type.getFields())) {
      const role = roleOf(field.astNode) ?? interfaceRole(type, field.name, roleOf) ?? typeRole;
      if (role !== undefined) fields.push({ path: `${type.name}.${field.name}`, role });
    }
  }
  return { roles, fields };
}

type RoleOf = (node: { readonly directives?: readonly DirectiveNode[] } | null | undefined) => string | undefined;

function interfaceRole(type: GraphQLObjectType, field: string, roleOf: RoleOf): string | undefined {
  for (const face of type.getInterfaces()) {
    const role = roleOf(face.getFields()[field]?.astNode);
    if (role !== undefined) return role;
  }
  return undefined;
}
