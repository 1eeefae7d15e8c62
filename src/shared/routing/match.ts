/** Path patterns: literal segments, `:name` parameters and a trailing `*` for the rest. */
export type Params = Record<string, string>;

export type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "rest" };

export function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

export function parsePattern(pattern: string): Segment[] {
  return splitPath(pattern).map((segment, index, all) => {
    if (segment === "*") {
      if (index !== all.length - 1) throw new Error(`route pattern ${pattern}: * must be the last segment`);
      return { kind: "rest" };
    }
    if (segment.startsWith(":")) return { kind: "param", name: segment.slice(1) };
    return { kind: "static", value: segment };
  });
}

/** Static segments outrank parameters, which outrank a rest: `/items/new` before `/items/:id`. */
export function specificity(segments: readonly Segment[]): number {
  let score = 0;
  for (const segment of segments) score += segment.kind === "static" ? 10 : segment.kind === "param" ? 3 : 1;
  return score;
}

/** Params when the path's segments match the pattern's, else null. */
export function matchSegments(segments: readonly Segment[], path: readonly string[]): Params | null {
  const rest = segments.at(-1)?.kind === "rest";
  if (rest ? path.length < segments.length - 1 : path.length !== segments.length) return null;
  const params: Params = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === "rest") {
      const value = safeDecode(path.slice(i).join("/"));
      if (value === null) return null;
      params["*"] = value;
      break;
    }
    const actual = path[i] as string;
    if (segment.kind === "static") {
      if (segment.value !== actual) return null;
      continue;
    }
    const value = safeDecode(actual);
    if (value === null) return null;
    params[segment.name] = value;
  }
  return params;
}

/** A percent-decoded path part, or null when its escapes are malformed. */
export function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
