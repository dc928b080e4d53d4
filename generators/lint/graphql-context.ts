/**
 * The GraphQL lint context: the schema graphql-js built from the SDL files, whose AST nodes keep
 * their source. `# codegen-lint-disable rule-id` on the comment lines right above a definition (or
 * a field) silences that rule there.
 */
import type { ASTNode, GraphQLSchema } from 'graphql';
import type { SourceLocation } from '../core/diagnostics.js';
import { loadGraphQL } from '../graphql/load.js';
import { LintContextBase, disabledInComment } from './context.js';

export interface GraphQLLoadOptions {
  displayRoot: string;
  readRoots?: string[];
  maxInputBytes?: number | undefined;
  assumeValidSDL?: boolean;
}

export class GraphQLContext extends LintContextBase {
  readonly style = 'graphql';

  private constructor(readonly schema: GraphQLSchema) {
    super();
  }

  static load(files: string[], options: GraphQLLoadOptions): GraphQLContext {
    const input = loadGraphQL(files, [], {
      displayRoot: options.displayRoot,
      readRoots: options.readRoots ?? [],
      maxInputBytes: options.maxInputBytes,
      assumeValidSDL: options.assumeValidSDL === true,
    });
    return new GraphQLContext(input.schema);
  }

  /** Reports at `node`; `definition` is the type it belongs to, whose comment may disable the rule too. */
  report(node: ASTNode | undefined | null, message: string, definition?: ASTNode | null): void {
    const location = locationOf(node);
    if (!location) return;
    this.push(message, location, [...commentAbove(node), ...commentAbove(definition)]);
  }
}

export function locationOf(node: ASTNode | undefined | null): SourceLocation | undefined {
  const loc = node?.loc;
  if (!loc) return undefined;
  const { line, column } = position(loc.source.body, loc.start);
  return { file: loc.source.name, line, column };
}

function position(body: string, offset: number): { line: number; column: number } {
  const before = body.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** Rule ids disabled by the `#` comment lines directly above the node. */
function commentAbove(node: ASTNode | undefined | null): string[] {
  const loc = node?.loc;
  if (!loc) return [];
  const lines = loc.source.body.slice(0, loc.start).split('\n');
  lines.pop(); // the node's own line, up to the node
  const comments: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = (lines[i] ?? '').trim();
    if (!text.startsWith('#')) break;
    comments.push(text);
  }
  return disabledInComment(comments.join('\n'));
}
