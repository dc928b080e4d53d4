/**
 * Files the user owns, such as the handler file a server needs. codegen writes one once, with
 * typed stubs; afterwards it only ever adds: when an operation appears in the schema, a stub for
 * it is inserted into the user's object literal (with ts-morph, so formatting, comments and every
 * line the user wrote stay exactly as they were). Nothing is removed or rewritten.
 */
import { IndentationText, Node, Project, QuoteKind, SyntaxKind, type ObjectLiteralExpression } from 'ts-morph';
import { error } from '../diagnostics.js';

export interface StubMember {
  /** Property name in the object literal, e.g. `getTask`. */
  name: string;
  /** Source of the member, e.g. `async getTask(request) {\n  throw ...;\n}`. */
  code: string;
  /**
   * For a member that is itself an object literal (GraphQL's `Query: { ... }`): its own members,
   * added one by one when the user's file already has this member; `code` is used when it has not.
   */
  members?: StubMember[];
}

export interface StubTarget {
  /** The variable whose object literal holds the members, e.g. `handlers`. */
  variable: string;
  members: StubMember[];
}

/** Adds a stub for each member the object literal lacks; returns the new text and what was added. */
export function addMissingMembers(text: string, file: string, target: StubTarget): { text: string; added: string[] } {
  // Indent added members as the user's file does (ts-morph's default is four spaces).
  const indent =
    /^( +|\t)\S/m.exec(
      text
        .slice(text.indexOf(`${target.variable}`))
        .split('\n')
        .slice(1)
        .join('\n'),
    )?.[1] ?? '  ';
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: indent === '\t' ? IndentationText.Tab : indent.length === 4 ? IndentationText.FourSpaces : IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Double,
    },
  });
  const source = project.createSourceFile('/user-file.ts', text);
  const declaration = source.getVariableDeclaration(target.variable);
  const literal = declaration ? objectLiteralOf(declaration.getInitializer()) : undefined;
  if (!literal) {
    throw error(
      `cannot find the object literal \`${target.variable} = { ... }\` to add new stubs to`,
      { file, line: 1, column: 1 },
      `keep \`export const ${target.variable} = { ... }\` in this file, or add the missing methods by hand: ${target.members.map((m) => m.name).join(', ')}`,
    );
  }
  const added: string[] = [];
  const needComma: ObjectLiteralExpression[] = [];
  addTo(literal, target.members, '', added, needComma);
  // Keep the user's style: a trailing comma after the last member where they wrote one. Inserted
  // last, from the end of the file backwards, because inserting text invalidates ts-morph's nodes.
  const ends = needComma.flatMap((object) => object.getProperties().at(-1)?.getEnd() ?? []).sort((a, b) => b - a);
  for (const end of ends) source.insertText(end, ',');
  return { text: added.length ? source.getFullText() : text, added };
}

/** Adds what `literal` lacks of `members` (recursively into nested literals); records dotted names. */
function addTo(
  literal: ObjectLiteralExpression,
  members: StubMember[],
  prefix: string,
  added: string[],
  needComma: ObjectLiteralExpression[],
): void {
  const present = new Map<string, Node>();
  for (const property of literal.getProperties()) {
    const name = Node.hasName(property) ? property.getName() : undefined;
    if (name !== undefined) present.set(name.replace(/^["'](.*)["']$/, '$1'), property);
  }
  const trailingComma = /,\s*}$/.test(literal.getText());
  let changed = false;
  for (const member of members) {
    const existing = present.get(member.name);
    if (existing) {
      const nested = member.members && Node.isPropertyAssignment(existing) ? objectLiteralOf(existing.getInitializer()) : undefined;
      if (nested && member.members) addTo(nested, member.members, `${prefix}${member.name}.`, added, needComma);
      continue;
    }
    literal.addProperty(member.code);
    added.push(`${prefix}${member.name}`);
    changed = true;
  }
  if (changed && trailingComma) needComma.push(literal);
}

/** The object literal of `= { ... }`, also through `satisfies X`, `as X` and parentheses. */
function objectLiteralOf(node: Node | undefined): ObjectLiteralExpression | undefined {
  let current = node;
  while (current && (Node.isSatisfiesExpression(current) || Node.isAsExpression(current) || Node.isParenthesizedExpression(current))) {
    current = current.getExpression();
  }
  return current?.asKind(SyntaxKind.ObjectLiteralExpression);
}
