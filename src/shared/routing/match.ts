/** A tiny path matcher for the route table: literal segments and `:name` parameters. */
export type Params = Record<string, string>;

export function matchPath(pattern: string, pathname: string): Params | null {
  const want = split(pattern);
  const have = split(pathname);
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const expected = want[i] as string;
    const actual = have[i] as string;
    if (expected.startsWith(":")) {
      const value = safeDecode(actual);
      if (value === null) return null;
      params[expected.slice(1)] = value;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

function split(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
