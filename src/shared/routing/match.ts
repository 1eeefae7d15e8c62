/** Path patterns: literal segments, `:name` parameters (`:name?` optional) and a trailing `*` for the rest. */
export type Params = Record<string, string>;

export type Segment = { kind: "static"; value: string } | { kind: "param"; name: string; optional?: true } | { kind: "rest" };

export function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

export function parsePattern(pattern: string): Segment[] {
  return splitPath(pattern).map((segment, index, all): Segment => {
    if (segment === "*") {
      if (index !== all.length - 1) throw new Error(`route pattern ${pattern}: * must be the last segment`);
      return { kind: "rest" };
    }
    const optional = segment.endsWith("?");
    if (segment.startsWith(":")) return optional ? { kind: "param", name: segment.slice(1, -1), optional } : { kind: "param", name: segment.slice(1) };
    // A path never holds a "?" (it starts the query): such a segment could match nothing.
    if (segment.includes("?")) throw new Error(`route pattern ${pattern}: only a :param may be optional (${segment})`);
    return { kind: "static", value: segment };
  });
}

/**
 * The patterns an optional segment stands for, each without the `?`: `/:lang?/about` is
 * `/:lang/about` and `/about`. The fuller forms come first.
 */
export function expandOptional(segments: readonly Segment[]): Segment[][] {
  let forms: Segment[][] = [[]];
  for (const segment of segments) {
    if (segment.kind === "param" && segment.optional) {
      const present: Segment = { kind: "param", name: segment.name };
      forms = forms.flatMap((form) => [[...form, present], form]);
    } else forms = forms.map((form) => [...form, segment]);
  }
  return forms;
}

/** Static segments outrank parameters, which outrank a rest: `/items/new` before `/items/:id`. */
export function specificity(segments: readonly Segment[]): number {
  let score = 0;
  for (const segment of segments) score += segment.kind === "static" ? 10 : segment.kind === "param" ? 3 : 1;
  return score;
}

/** Params when the path's segments match the pattern's (one without optional segments: see expandOptional), else null. */
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
