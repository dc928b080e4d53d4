/**
 * What an operation would cost, measured on its document before anything runs (GraphQL itself
 * sets no limits; these guard the server against costly queries): depth, aliases, complexity (1
 * per field; a paginated list multiplies the cost of what is selected under it by its page size)
 * and page sizes above the maximum. Fields named `__*` (introspection,
 * `__typename`) are free: introspection has its own switch.
 *
 * A fragment is measured once per operation however often it is spread, so a document of nested
 * fragments cannot make the measurement itself expensive.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { ErrorCode, codedError } from "./graphql-errors.js";

export interface Limits {
  /** Deepest field nesting; the root fields are depth 1. Default 10. */
  depth: number;
  /** Highest complexity (see above). Default 1000. */
  complexity: number;
  /** Most aliased fields in one operation. Default 15. */
  aliases: number;
  /** Most lexical tokens in a query (graphql's `maxTokens`). Default 2000. */
  tokens: number;
  /** Largest page a paginated field may be asked for. Default 100. */
  pageSize: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = { depth: 10, complexity: 1000, aliases: 15, tokens: 2000, pageSize: 100 };

/** Argument names that set a page size. */
export const DEFAULT_PAGINATION_ARGUMENTS: readonly string[] = ["first", "last", "limit", "pageSize", "take", "top"];

export type Variables = Readonly<Record<string, unknown>>;

interface Measure {
  cost: number;
  /** Depth below the selection set's owner. */
  depth: number;
  aliases: number;
}

export interface OperationMeasure extends Measure {
  /** Whether a page size comes from a variable, so the measure must be redone per request. */
  usesVariables: boolean;
  /** The variables page sizes come from: the measure with variables depends on their values alone. */
  pageVariables: readonly string[];
  errors: GraphQLError[];
}

export class OperationLimits {
  private readonly paginated = new Map<GraphQLField<unknown, unknown>, readonly string[]>();
  private readonly names: ReadonlySet<string>;

  constructor(
    readonly schema: GraphQLSchema,
    private readonly limits: Readonly<Limits>,
    paginationArguments: readonly string[],
  ) {
    this.names = new Set(paginationArguments);
  }

  /**
   * Every limit `operation` breaks. Without `variables` (when a document is first seen), page
   * sizes held by variables are unknown and `usesVariables` says so.
   */
  check(
    operation: OperationDefinitionNode,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    variables?: Variables,
  ): OperationMeasure {
    const root = this.schema.getRootType(operation.operation);
    const walk = new Walk(this, fragments, operation, variables);
    const measure = root ? walk.selections(operation.selectionSet, root) : { cost: 0, depth: 0, aliases: 0 };
    const errors = walk.errors;
    if (measure.depth > this.limits.depth) {
      errors.push(codedError(`Query depth ${measure.depth} exceeds the limit of ${this.limits.depth}.`, ErrorCode.DepthLimit, [operation]));
    }
    if (measure.aliases > this.limits.aliases) {
      errors.push(
        codedError(`Query has ${measure.aliases} aliases; the limit is ${this.limits.aliases}.`, ErrorCode.AliasLimit, [operation]),
      );
    }
    if (measure.cost > this.limits.complexity && !(walk.pageVariables.size > 0 && variables === undefined)) {
      errors.push(
        codedError(`Query complexity ${measure.cost} exceeds the limit of ${this.limits.complexity}.`, ErrorCode.ComplexityLimit, [
          operation,
        ]),
      );
    }
    return { ...measure, usesVariables: walk.pageVariables.size > 0, pageVariables: [...walk.pageVariables], errors };
  }

  /** The page-size arguments `field` declares, when it returns a list or a connection. */
  paginationOf(field: GraphQLField<unknown, unknown>): readonly string[] {
    let found = this.paginated.get(field);
    if (!found) {
      const type = getNullableType(field.type);
      const named = getNamedType(type);
      const many = isListType(type) || (isObjectType(named) && (named.name.endsWith("Connection") || "edges" in named.getFields()));
      found = many ? field.args.filter((arg) => this.names.has(arg.name)).map((arg) => arg.name) : [];
      this.paginated.set(field, found);
    }
    return found;
  }

  get maxPageSize(): number {
    return this.limits.pageSize;
  }
}

/** One measurement of one operation. */
class Walk {
  readonly errors: GraphQLError[] = [];
  readonly pageVariables = new Set<string>();
  private readonly done = new Map<string, Measure>();

  constructor(
    private readonly limits: OperationLimits,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
    private readonly variables: Variables | undefined,
  ) {}

  selections(set: SelectionSetNode, parent: GraphQLNamedType): Measure {
    const total: Measure = { cost: 0, depth: 0, aliases: 0 };
    for (const selection of set.selections) {
      let part: Measure | undefined;
      if (selection.kind === Kind.FIELD) {
        part = this.field(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.limits.schema.getType(selection.typeCondition.name.value) : parent;
        part = type ? this.selections(selection.selectionSet, type) : undefined;
      } else {
        part = this.fragment(selection.name.value);
      }
      if (!part) continue;
      total.cost += part.cost;
      total.aliases += part.aliases;
      if (part.depth > total.depth) total.depth = part.depth;
    }
    return total;
  }

  private fragment(name: string): Measure | undefined {
    let measure = this.done.get(name);
    if (!measure) {
      const fragment = this.fragments.get(name);
      const type = fragment && this.limits.schema.getType(fragment.typeCondition.name.value);
      if (!fragment || !type) return undefined;
      measure = this.selections(fragment.selectionSet, type);
      this.done.set(name, measure);
    }
    return measure;
  }

  private field(node: FieldNode, parent: GraphQLNamedType): Measure | undefined {
    if (node.name.value.startsWith("__")) return undefined;
    const definition = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
    if (!definition) return undefined;
    const aliases = node.alias ? 1 : 0;
    if (!node.selectionSet) return { cost: 1, depth: 1, aliases };
    const below = this.selections(node.selectionSet, getNamedType(definition.type));
    const pageSize = this.pageSize(node, definition);
    return { cost: 1 + pageSize * below.cost, depth: 1 + below.depth, aliases: aliases + below.aliases };
  }

  /** The page size `node` asks for (1 for a field that is not paginated), checked against the maximum. */
  private pageSize(node: FieldNode, definition: GraphQLField<unknown, unknown>): number {
    const names = this.limits.paginationOf(definition);
    if (names.length === 0) return 1;
    const max = this.limits.maxPageSize;
    let size: number | undefined;
    for (const name of names) {
      const argument = node.arguments?.find((candidate) => candidate.name.value === name);
      let value = argument ? this.intValue(argument.value) : undefined;
      // No argument, or a variable nobody set: the argument's default applies (as in execution).
      if (value === undefined) value = definition.args.find((arg) => arg.name === name)?.defaultValue;
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      if (value < 0 || value > max) {
        this.errors.push(
          codedError(`"${name}" of ${definition.name} must be between 0 and ${max}; got ${value}.`, ErrorCode.PageSizeLimit, [
            argument ?? node,
          ]),
        );
      }
      size = size === undefined ? value : Math.max(size, value);
    }
    // A page size nobody sent may be the largest the resolver serves.
    return Math.max(0, Math.min(size ?? max, max));
  }

  private intValue(value: ValueNode): unknown {
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind !== Kind.VARIABLE) return undefined;
    const name = value.name.value;
    this.pageVariables.add(name);
    if (!this.variables) return undefined;
    if (this.variables[name] !== undefined) return this.variables[name];
    const fallback = this.operation.variableDefinitions?.find((definition) => definition.variable.name.value === name)?.defaultValue;
    return fallback?.kind === Kind.INT ? Number(fallback.value) : undefined;
  }
}
