export function findCycles<Node>(graph: Map<Node, Set<Node>>): { nodes: Node[]; cycles: Node[][] }[];
