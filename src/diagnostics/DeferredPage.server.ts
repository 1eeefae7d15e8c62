import type { LoaderContext } from "#outpost";

/** How long the slow value takes: long enough to see the fallback, short enough to wait for. */
const SLOW_MS = 1_000;

/**
 * `fast` at once, `slow` deferred: the page streams it in. `?fail=1` makes it fail instead;
 * `?ready=1` returns it already there, the same page with nothing deferred (the benchmark's reference).
 */
export function load({ url }: LoaderContext) {
  if (url.searchParams.get("ready") === "1") return { fast: "the fast value", slow: "the slow value" };
  const fail = url.searchParams.get("fail") === "1";
  const slow = new Promise<string>((resolve, reject) => {
    setTimeout(() => (fail ? reject(new Error("diagnostic deferred error")) : resolve("the slow value")), SLOW_MS);
  });
  return { fast: "the fast value", slow };
}
