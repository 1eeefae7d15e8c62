/**
 * Whether parsed JSON nests arrays and objects more than `limit` levels deep (`[]` is one level,
 * `{"a":[1]}` two). Walked with an explicit stack, stopping at the first level past the limit:
 * the check itself neither recurses nor walks the rest of a deep value.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child !== "object" || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}
