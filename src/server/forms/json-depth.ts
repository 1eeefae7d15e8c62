/**
 * Whether parsed JSON nests arrays and objects more than `limit` levels deep (`[]` is one level,
 * `{"a":[1]}` two). Walked with an explicit stack, stopping at the first level past the limit:
 * the check itself neither recurses nor walks the rest of a deep value. For JSON.parse's output
 * only: `for…in` sees own keys alone there, and allocates nothing, unlike Object.values.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const child = current[index];
        if (typeof child === "object" && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      const child = current[key];
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
