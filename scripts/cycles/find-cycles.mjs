// Cycles of a directed graph, enough of them to show every edge that lies on one: each edge of a
// strongly connected component (a knot) is closed by the shortest way back, so every edge holding
// the knot together is printed once at least.

/**
 * `graph`: Map from node to the Set of nodes it points to. Returns each knot as { nodes, cycles },
 * a cycle written [a, b, …, a].
 */
export function findCycles(graph) {
  return stronglyConnected(graph).map((nodes) => {
    const within = new Set(nodes);
    const covered = new Set();
    const cycles = [];
    for (const from of nodes) {
      for (const to of graph.get(from) ?? []) {
        if (!within.has(to) || covered.has(edgeKey(from, to))) continue;
        const cycle = [from, ...shortestPath(graph, within, to, from)];
        for (let i = 0; i + 1 < cycle.length; i++) covered.add(edgeKey(cycle[i], cycle[i + 1]));
        cycles.push(cycle);
      }
    }
    return { nodes, cycles };
  });
}

const edgeKey = (from, to) => `${from}\0${to}`;

// Breadth-first within one component, where a way from `start` to `goal` always exists.
function shortestPath(graph, within, start, goal) {
  if (start === goal) return [goal];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  for (let i = 0; !previous.has(goal); i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (within.has(next) && !previous.has(next)) {
        previous.set(next, queue[i]);
        queue.push(next);
      }
    }
  }
  const way = [goal];
  while (way[0] !== start) way.unshift(previous.get(way[0]));
  return way;
}

// Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack. Keeps the
// components that hold a cycle: more than one node, or one that points to itself.
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [{ node: root, next: [...(graph.get(root) ?? [])] }];
    index.set(root, index.size);
    low.set(root, index.get(root));
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const to = frame.next.shift();
      if (to !== undefined) {
        if (!index.has(to)) {
          index.set(to, index.size);
          low.set(to, index.get(to));
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: [...(graph.get(to) ?? [])] });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) components.push(component.reverse());
    }
  }
  return components;
}
