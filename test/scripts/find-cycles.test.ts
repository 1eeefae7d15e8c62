import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCycles } from "../../scripts/cycles/find-cycles.mjs";

const graphOf = (edges: [number, number][]) => {
  const graph = new Map<number, Set<number>>();
  for (const [from, to] of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(to);
  }
  return graph;
};

function reaches(graph: Map<number, Set<number>>, from: number, to: number) {
  const seen = new Set([from]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i] as number) ?? []) {
      if (next === to) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return false;
}

describe("findCycles (the cycles check:cycles prints)", () => {
  it("finds none in a graph without a cycle", () => {
    expect(findCycles(graphOf([[1, 2], [2, 3], [1, 3]]))).toEqual([]);
  });

  it("shows a self-edge as a cycle of its own", () => {
    expect(findCycles(graphOf([[1, 1], [1, 2]]))).toEqual([{ nodes: [1], cycles: [[1, 1]] }]);
  });

  it("shows every edge that lies on a cycle, in cycles made of real edges, and no other", () => {
    const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })), { maxLength: 30 });
    fc.assert(
      fc.property(edges, (list) => {
        const graph = graphOf(list);
        const shown = new Set<string>();
        for (const { cycles } of findCycles(graph)) {
          for (const cycle of cycles) {
            expect(cycle[0]).toBe(cycle[cycle.length - 1]);
            for (let i = 0; i + 1 < cycle.length; i++) {
              expect(graph.get(cycle[i] as number)?.has(cycle[i + 1] as number)).toBe(true);
              shown.add(`${cycle[i]}→${cycle[i + 1]}`);
            }
          }
        }
        const onACycle = list.filter(([from, to]) => from === to || reaches(graph, to, from)).map(([from, to]) => `${from}→${to}`);
        expect([...shown].sort()).toEqual([...new Set(onACycle)].sort());
      }),
    );
  });
});
