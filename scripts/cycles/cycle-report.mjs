// The module and folder cycles of a tree's imports, each with one example import per step.
import path from "node:path";
import { findCycles } from "./find-cycles.mjs";

/**
 * `edges`: { from, to } module paths. Returns { modules, folders }: lists of knots (nodes that all
 * reach each other), each { nodes, cycles }, a cycle being a list of steps { from, to, example }
 * where the example is one import { from, to } making that step. A folder and its subfolders are
 * separate nodes; imports inside one folder make no folder step.
 */
export function findImportCycles(edges) {
  return {
    modules: knotsOf(edges, (file) => file),
    folders: knotsOf(edges, (file) => path.posix.dirname(file)),
  };
}

function knotsOf(edges, nodeOf) {
  const graph = new Map();
  const examples = new Map();
  const sorted = [...edges].sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  for (const edge of sorted) {
    const from = nodeOf(edge.from);
    const to = nodeOf(edge.to);
    if (from === to && edge.from !== edge.to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from).add(to);
    if (!examples.has(`${from}\0${to}`)) examples.set(`${from}\0${to}`, edge);
  }
  return findCycles(graph).map(({ nodes, cycles }) => ({
    nodes: [...nodes].sort(compare),
    cycles: cycles.map((cycle) =>
      cycle.slice(1).map((to, i) => ({ from: cycle[i], to, example: examples.get(`${cycle[i]}\0${to}`) })),
    ),
  }));
}

const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** The cycles as readable lines: each chain, and under a folder chain the import behind each step. */
export function formatCycles({ modules, folders }) {
  const lines = [];
  for (const knot of modules) {
    for (const steps of knot.cycles) lines.push(`module cycle: ${chain(steps)}`);
  }
  for (const knot of folders) {
    lines.push(`folder cycles among ${knot.nodes.join(", ")}:`);
    for (const steps of knot.cycles) {
      lines.push(`  ${chain(steps)}`);
      for (const { example } of steps) lines.push(`      ${example.from} → ${example.to}`);
    }
  }
  const total = (knots) => knots.reduce((sum, knot) => sum + knot.cycles.length, 0);
  lines.push(`${count(total(modules), "module cycle")}, ${count(total(folders), "folder cycle")}`);
  return lines.join("\n");
}

const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const chain = (steps) => [steps[0].from, ...steps.map((step) => step.to)].join(" → ");
