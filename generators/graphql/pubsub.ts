/**
 * What templates/graphql/pubsub.ts.hbs prints: one `SubscriptionTopic` (runtime/graphql-pubsub.ts)
 * per `Subscription` field, typed with the field's arguments (`types.ts`'s `<Type><Field>Args`),
 * the arguments that form its key, and its payload (`SubscriptionPayloads`, the resolver-side type,
 * so `mappers` apply).
 *
 * The key rule: a field's required (`!`) arguments of a built-in scalar or enum type, in schema
 * order, identify its stream (`taskChanged(projectId: ID!)` publishes on `taskChanged:<projectId>`).
 * Optional, list, input-object and custom-scalar arguments do not: a publisher cannot know every
 * value a subscriber may pass for them, so they are for each subscriber's `filter`.
 */
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isSpecifiedScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { FileBuilder, runtimeSymbol, typeSymbol } from '../core/builder/file.js';
import { jsDoc, propertyAccess, propertyKey, stringLiteral } from '../core/builder/names.js';
import { typesNames } from './names.js';
import type { PubSubContext, PubSubFieldContext } from './template-context.js';

/** Names pubsub.ts declares. */
const PUBSUB_MODULE_NAMES = ['PubSub', 'createPubSub'];

/** Whether `arg` is part of its field's key (the rule in this module's comment). */
export function isKeyArgument(arg: GraphQLArgument): boolean {
  if (!isNonNullType(arg.type) || isListType(arg.type.ofType)) return false;
  const named = getNamedType(arg.type);
  return isEnumType(named) || isSpecifiedScalarType(named);
}

/** The `Subscription` fields of `schema`, in schema order; none without a subscription type. */
export function subscriptionFields(schema: GraphQLSchema): GraphQLField<unknown, unknown>[] {
  const type = schema.getSubscriptionType();
  return type ? Object.values(type.getFields()) : [];
}

/** The template's context (without `source`) and the file builder that prints its imports. */
export function pubsubContext(schema: GraphQLSchema): { context: Omit<PubSubContext, 'source'>; file: FileBuilder } {
  const type = schema.getSubscriptionType() as GraphQLObjectType;
  const names = typesNames(schema);
  const file = new FileBuilder('pubsub.ts', PUBSUB_MODULE_NAMES);
  const topic = file.use(runtimeSymbol('SubscriptionTopic', 'graphql-pubsub'));
  const payloads = file.use(typeSymbol(names.subscriptionPayloads, './types'));
  file.reexportRuntime('pubsub', 'topic', 'graphql-pubsub');
  const fields = subscriptionFields(schema).map((field): PubSubFieldContext => {
    const argsName = names.args(type.name, field.name);
    const args = argsName ? file.use(typeSymbol(argsName, './types')) : 'Record<string, never>';
    const keys = field.args.filter(isKeyArgument).map((arg) => arg.name);
    const others = field.args.filter((arg) => !isKeyArgument(arg)).map((arg) => arg.name);
    const name = stringLiteral(field.name);
    const keyUnion = keys.length ? keys.map(stringLiteral).join(' | ') : 'never';
    const payload = `${payloads}[${name}]`;
    const quoted = (list: string[]) => list.map((each) => `\`${each}\``).join(', ');
    const keyText = keys.length ? `keyed by ${quoted(keys)}` : 'one stream (no argument narrows it)';
    const filterText = others.length ? `For a subscriber's \`filter\`: ${quoted(others)}.` : undefined;
    const typeArgs = [name, args, keyUnion, payload];
    const oneLine = `${topic}<${typeArgs.join(', ')}>`;
    const key = propertyKey(field.name);
    return {
      doc: jsDoc([field.description ?? undefined, `\`${type.name}.${field.name}\`, ${keyText}.`, filterText], '  '),
      key,
      type: `  readonly ${key}: ${oneLine};`.length <= 100 ? oneLine : `${topic}<\n${typeArgs.map((arg) => `    ${arg}`).join(',\n')}\n  >`,
      init: `new ${topic}(fanOut, ${name}, [${keys.map(stringLiteral).join(', ')}], options.codec)`,
      access: propertyAccess('pubsub', field.name),
      publishArgs: keys.length ? `{ ${keys.join(', ')} }, payload` : 'payload',
    };
  });
  const fanOut = file.use(runtimeSymbol('FanOut', 'pubsub'));
  const memory = file.use(runtimeSymbol('MemoryFanOut', 'pubsub'));
  const options = file.use(runtimeSymbol('PubSubOptions', 'graphql-pubsub'));
  return { file, context: { fields, fanOut, memory, options } };
}
