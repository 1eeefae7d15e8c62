/** One value met while walking, with what it takes to name its path. */
interface Step {
  value: unknown;
  key: string | number | undefined;
  parent: Step | undefined;
  depth: number;
  /** Set on the marker popped once all of an object's children were walked. */
  leaving?: boolean;
}

// A path longer than this shows its start and its end.
const PATH_EDGE = 6;
// Past this the walk stops: a toJSON returning a fresh object that holds itself again nests forever.
const WALK_DEPTH = 100_000;

function pathOf(step: Step): string {
  const keys: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) keys.push(at.key);
  keys.reverse();
  const segment = (key: string | number) => (typeof key === "number" ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);
  if (keys.length <= PATH_EDGE * 2) return `$${keys.map(segment).join("")}`;
  const left = keys.length - PATH_EDGE * 2;
  return `$${keys.slice(0, PATH_EDGE).map(segment).join("")}…(${left} more)…${keys.slice(-PATH_EDGE).map(segment).join("")}`;
}

/** What JSON.stringify would write for the value under `key` (its toJSON), as far as the walk needs. */
function serialisedForm(value: unknown, key: string | number | undefined): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === "function" ? toJSON.call(value, String(key ?? "")) : value;
}

/**
 * Why JSON.stringify cannot write `root`: the first BigInt or cycle with its path, else how deeply
 * it nests (JSON.stringify recurses, so a deep enough value exhausts the stack). Walked with an
 * explicit stack, so the walk itself never overflows; only called once stringify has failed.
 */
export function unserialisableReason(root: unknown): string {
  const ancestors = new Map<object, Step>();
  const stack: Step[] = [{ value: root, key: undefined, parent: undefined, depth: 0 }];
  let deepest = 0;
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    if (step.leaving) {
      ancestors.delete(step.value as object);
      continue;
    }
    const value = serialisedForm(step.value, step.key);
    if (typeof value === "bigint") return `a BigInt at ${pathOf(step)}`;
    if (typeof value !== "object" || value === null) continue;
    const cycleTo = ancestors.get(value);
    if (cycleTo) return `a cycle: ${pathOf(step)} is ${pathOf(cycleTo)} again`;
    const depth = step.depth + 1;
    if (depth > WALK_DEPTH) return `a value nested more than ${WALK_DEPTH} levels deep`;
    deepest = Math.max(deepest, depth);
    const own = { ...step, value };
    ancestors.set(value, own);
    stack.push({ ...own, leaving: true });
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as [string | number, unknown];
      stack.push({ value: child, key, parent: own, depth });
    }
  }
  return `a value nested ${deepest} levels deep`;
}
