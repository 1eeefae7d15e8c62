import { type ActionContext, actionData, redirect } from "#outpost";

// Per process: enough to see an action change what the loader returns.
let saved = 0;

export function load() {
  return { saved };
}

/** Checks forms after a deploy: a required field (422), a save the loader then shows, a redirect, an error. */
export function action({ body }: ActionContext) {
  const fields = (body ?? {}) as Record<string, unknown>;
  const note = typeof fields.note === "string" ? fields.note.trim() : "";
  if (fields.intent === "fail") throw new Error("diagnostic action error");
  if (!note) return actionData({ error: "Please write a note", note: "" }, { status: 422 });
  saved += 1;
  if (fields.intent === "redirect") redirect("/diagnostics/form?redirected=1", 303);
  return { savedNote: note };
}
