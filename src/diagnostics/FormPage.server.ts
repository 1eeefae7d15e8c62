import type { ActionContext } from "#outpost";
import { actionData, parseForm, redirect } from "#outpost/server";
import { enum as oneOf, minLength, object, string, trim } from "zod/mini";

// Per process: enough to see an action change what the loader returns.
let saved = 0;

export function load() {
  return { saved };
}

export const NOTE_FIELDS = ["note", "intent"] as const;

const noteSchema = object({
  note: string({ error: "Please write a note" }).check(trim(), minLength(1, "Please write a note")),
  intent: oneOf(["save", "redirect", "fail"], { error: "Choose save, redirect or fail" }),
});

/** Checks forms after a deploy: a required field (422), a save the loader then shows, a redirect, an error. */
export function action({ body }: ActionContext) {
  if ((body as { intent?: unknown } | undefined)?.intent === "fail") throw new Error("diagnostic action error");
  const parsed = parseForm(noteSchema, body, NOTE_FIELDS);
  if (!parsed.ok) return actionData({ errors: parsed.errors, values: parsed.values }, { status: 422 });
  saved += 1;
  if (parsed.data.intent === "redirect") redirect("/diagnostics/form?redirected=1", 303);
  return { savedNote: parsed.data.note };
}
