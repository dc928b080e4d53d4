/**
 * Strongly connected components of a reference graph (Tarjan's algorithm, iterative so a long
 * chain of schemas cannot overflow the stack). Linear in nodes plus edges.
 */

/** For every node that sits on a cycle (a component of two or more, or a self-reference), its component number. */
export function cyclicComponents(edges: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const result = new Map<string, number>();
  stronglyConnectedComponents(edges).forEach((members, component) => {
    const only = members[0] as string;
    const selfLoop = members.length === 1 && (edges.get(only) ?? []).includes(only);
    if (members.length > 1 || selfLoop) for (const name of members) result.set(name, component);
  });
  return result;
}

/** The components, each listed after every component it reaches (Tarjan's order). */
export function stronglyConnectedComponents(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;

  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    // Each frame: the node and the position of the next edge to follow.
    const frames: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!edges.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        result.push(members);
      }
    }
  }
  return result;
}
