/**
 * The user's resolver file for a generated GraphQL server: written once with a typed stub for
 * every field of the root types (`Query`, `Mutation`, `Subscription`), then only added to: a field
 * added to the schema gets a stub, nothing the user wrote changes (generators/core/pipeline/user-files.ts).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { FileBuilder, symbol } from '../core/builder/file.js';
import { indent, jsDoc, propertyKey, stringLiteral } from '../core/builder/names.js';
import { displayPath, importSpecifier } from '../core/pipeline/paths.js';
import type { TemplateRenderer } from '../core/pipeline/templates.js';
import type { StubMember } from '../core/pipeline/user-files.js';
import { typesNames } from './names.js';
import type { ResolversContext } from './template-context.js';

export async function resolversScaffold(
  schema: GraphQLSchema,
  templates: TemplateRenderer,
  file: string,
  output: string,
): Promise<{ file: string; content: string }> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
    (type): type is GraphQLObjectType => type != null,
  );
  const subscription = schema.getSubscriptionType();
  const members = roots.map((type) => rootMember(type, type === subscription));

  const existing = await readFile(file, 'utf8').catch(() => undefined);
  if (existing === undefined) {
    // The user's file is outside the output folder: it names the generated modules by their specifiers.
    const builder = new FileBuilder(file, ['Context', 'resolvers']);
    const resolversType = builder.use(
      symbol(typesNames(schema).resolvers, importSpecifier(dirname(file), `${output}/types.js`), { type: true, verbatim: true }),
    );
    const context: ResolversContext = {
      imports: builder.imports(),
      resolversType,
      serverImport: importSpecifier(dirname(file), `${output}/server.js`),
      roots: members.map((member) => indent(member.code, '  ')),
    };
    return { file, content: templates.render('graphql/resolvers.ts.hbs', context) };
  }
  // ts-morph is heavy: load it only when there is a user file to add to.
  const { addMissingMembers } = await import('../core/pipeline/user-files.js');
  return { file, content: addMissingMembers(existing, displayPath(file), { variable: 'resolvers', members }).text };
}

/** `Query: { viewer() { throw ... }, ... }`, with each field also a member of its own. */
function rootMember(type: GraphQLObjectType, subscription: boolean): StubMember {
  const fields = Object.values(type.getFields()).map((field): StubMember => {
    const message = stringLiteral(`${type.name}.${field.name} is not implemented yet`);
    const doc = jsDoc([field.description ?? undefined]);
    const code = subscription
      ? `${doc}${propertyKey(field.name)}: {\n  subscribe() {\n    throw new Error(${message});\n  },\n}`
      : `${doc}${propertyKey(field.name)}() {\n  throw new Error(${message});\n}`;
    return { name: field.name, code };
  });
  const body = fields.map((field) => `${indent(field.code, '  ')},`).join('\n');
  return { name: type.name, code: `${propertyKey(type.name)}: {\n${body}\n}`, members: fields };
}
