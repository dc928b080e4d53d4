/**
 * From query text to a document ready to execute: parsed (with a token limit), validated (the
 * spec's rules, no introspection unless allowed, the limits of graphql-limits.ts) and cached by its
 * text, so a repeated query skips parsing and validation. The cache is an LRU (by second chance)
 * bounded by entries and by total text length. Only the page sizes that come from variables are checked per request.
 *
 * An operation that runs a second time is compiled by graphql-jit into a function that executes
 * it (about 10× faster than graphql-js's interpreting `execute` here); one-off texts are not worth
 * the compilation (a few times their validation), so they, and subscriptions, run in graphql-js.
 */
import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { ErrorCode, codedError, withCode, withoutSuggestions } from "./graphql-errors.js";
import { compileSerializer, type Serialize } from "./graphql-json.js";
import { OperationLimits, type Limits, type OperationMeasure, type Variables } from "./graphql-limits.js";

export interface DocumentOptions {
  limits: Readonly<Limits>;
  paginationArguments: readonly string[];
  introspection: boolean;
  /** Removes "Did you mean ...?" from validation messages. */
  hideSuggestions: boolean;
  /** Most documents kept. */
  cacheEntries: number;
  /** Most characters of query text kept, all entries together. */
  cacheCharacters: number;
}

export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Its complexity, with this request's variables (what a weighted rate limit charges). */
  cost: number;
  /** The operation compiled by graphql-jit, once it has run before; absent: run it with graphql-js. */
  compiled: CompiledQuery | undefined;
  /** With `compiled`, when the answer's shape is fixed: its serializer (see graphql-json.ts). */
  serialize: Serialize | undefined;
}

/** What is known of one operation of a cached document. */
interface OperationEntry {
  measure: OperationMeasure;
  /** With page sizes from variables: the measure by those variables' values (see `pageSizesKey`). */
  byPageSizes?: Map<string, OperationMeasure>;
  /** How often it was prepared; compiled on the second time. */
  runs: number;
  /** null: graphql-jit could not compile it (graphql-js runs it). */
  compiled?: CompiledQuery | null;
  serialize?: Serialize | undefined;
}

interface Entry {
  /** Set when the document is valid; otherwise `errors` says why not. */
  document?: DocumentNode;
  /** Whether the text parsed: invalid documents are cached too, texts that do not parse are not. */
  cacheable?: boolean;
  errors?: readonly GraphQLError[];
  fragments: Map<string, FragmentDefinitionNode>;
  operations: Map<OperationDefinitionNode, OperationEntry>;
  /** Hit since eviction last passed it over. */
  used: boolean;
}

/** The values of `names` in `variables` as a key, when each is a number or unset (the only values a page size takes). */
function pageSizesKey(names: readonly string[], variables: Variables): string | undefined {
  let key = "";
  for (const name of names) {
    const value = variables[name];
    if (value !== undefined && typeof value !== "number") return undefined;
    key += `${value},`;
  }
  return key;
}

/** Refuses `__schema` and `__type` (not `__typename`) when introspection is off. */
const NoIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === "__schema" || node.name.value === "__type") {
      context.reportError(codedError("GraphQL introspection is not allowed here.", ErrorCode.IntrospectionDisabled, [node]));
    }
  },
});

export class DocumentCache {
  private readonly entries = new Map<string, Entry>();
  private characters = 0;
  private readonly rules: readonly ValidationRule[];
  private readonly limits: OperationLimits;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: DocumentOptions,
  ) {
    this.rules = options.introspection ? specifiedRules : [...specifiedRules, NoIntrospection];
    this.limits = new OperationLimits(schema, options.limits, options.paginationArguments);
  }

  /** The operation to run, or why it may not run. */
  prepare(
    query: string,
    operationName: string | null | undefined,
    variables: Variables | null | undefined,
  ): PreparedOperation | readonly GraphQLError[] {
    const entry = this.entry(query);
    if (!entry.document) return entry.errors ?? [];
    const operation = getOperationAST(entry.document, operationName);
    if (!operation) {
      const message = operationName
        ? `Unknown operation named "${operationName}".`
        : "Must provide operation name if query contains multiple operations.";
      return [codedError(message, ErrorCode.BadUserInput)];
    }
    let known = entry.operations.get(operation);
    if (!known) {
      known = { measure: this.limits.check(operation, entry.fragments), runs: 0 };
      entry.operations.set(operation, known);
    }
    const { measure } = known;
    if (measure.errors.length > 0) return measure.errors;
    let cost = measure.cost;
    if (measure.usesVariables) {
      const withVariables = this.measureWith(known, operation, entry.fragments, variables ?? {});
      if (withVariables.errors.length > 0) return withVariables.errors;
      cost = withVariables.cost;
    }
    const compiled = this.compiled(entry.document, operation, known);
    return { document: entry.document, operation, cost, compiled, serialize: compiled && known.serialize };
  }

  /**
   * The measure of an operation whose page sizes come from `variables`: it depends on their values
   * alone, so a client paging with the same sizes is measured once (up to 100 sets of sizes kept).
   */
  private measureWith(
    known: OperationEntry,
    operation: OperationDefinitionNode,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    variables: Variables,
  ): OperationMeasure {
    const key = pageSizesKey(known.measure.pageVariables, variables);
    const cached = key === undefined ? undefined : known.byPageSizes?.get(key);
    if (cached) return cached;
    const measure = this.limits.check(operation, fragments, variables);
    if (key !== undefined) {
      known.byPageSizes ??= new Map();
      if (known.byPageSizes.size >= 100) known.byPageSizes.clear();
      known.byPageSizes.set(key, measure);
    }
    return measure;
  }

  /** The compiled operation from its second run on (subscriptions are not compiled). */
  private compiled(document: DocumentNode, operation: OperationDefinitionNode, known: OperationEntry): CompiledQuery | undefined {
    if (known.compiled !== undefined) return known.compiled ?? undefined;
    if (operation.operation === "subscription" || ++known.runs < 2) return undefined;
    const compiled = compileQuery(this.schema, document, operation.name?.value);
    known.compiled = isCompiledQuery(compiled) ? compiled : null;
    if (known.compiled) known.serialize = compileSerializer(this.schema, document, operation);
    return known.compiled ?? undefined;
  }

  private entry(query: string): Entry {
    const cached = this.entries.get(query);
    if (cached) {
      // A hit only marks the entry (moving it to the end of the Map on every hit costs a delete and an insert).
      cached.used = true;
      return cached;
    }
    const entry = this.load(query);
    // Texts that do not even parse are not worth a slot (and are the cheap ones to send in bulk).
    if (entry.cacheable && query.length <= this.options.cacheCharacters) {
      this.entries.set(query, entry);
      this.characters += query.length;
      this.evict();
    }
    return entry;
  }

  /**
   * Drops the eldest entries (Map keeps insertion order) until the cache is within its bounds,
   * LRU by second chance: an entry used since it was last passed over goes to the end instead.
   */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.options.cacheEntries && this.characters <= this.options.cacheCharacters) break;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.characters -= key.length;
      }
    }
  }

  private load(query: string): Entry {
    const entry: Entry = { fragments: new Map(), operations: new Map(), used: false };
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.options.limits.tokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const code = error.message.endsWith("tokens. Parsing aborted.") ? ErrorCode.TokenLimit : ErrorCode.ParseFailed;
      entry.errors = [withCode(error, code)];
      return entry;
    }
    const errors = validate(this.schema, document, this.rules);
    if (errors.length > 0) {
      const hide = this.options.hideSuggestions;
      entry.errors = errors.map((error) =>
        withCode(error, ErrorCode.ValidationFailed, hide ? withoutSuggestions(error.message) : error.message),
      );
      entry.cacheable = true;
      return entry;
    }
    entry.document = document;
    entry.cacheable = true;
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) entry.fragments.set(definition.name.value, definition);
    }
    return entry;
  }
}
