import type { ActionContext } from "#outpost";
import { actionData, parseForm } from "#outpost/server";
import { enum as oneOf, object } from "zod/mini";

// Per instance, in memory: two fetchers' actions that overlap must both count (a cookie session would lose one).
const counts = { a: 0, b: 0 };
const ACTION_MS = 300;

export function load() {
  return { counts: { ...counts } };
}

const COUNTER_FIELDS = ["counter"] as const;
const incrementSchema = object({ counter: oneOf(["a", "b"], { error: "Choose counter a or b" }) });

/** Adds one to a counter after about 300 ms, so that two fetchers' requests overlap. */
export async function action({ body }: ActionContext) {
  const parsed = parseForm(incrementSchema, body, COUNTER_FIELDS);
  if (!parsed.ok) return actionData({ errors: parsed.errors }, { status: 422 });
  await new Promise((resolve) => setTimeout(resolve, ACTION_MS));
  const { counter } = parsed.data;
  counts[counter] += 1;
  return { counter, value: counts[counter] };
}
