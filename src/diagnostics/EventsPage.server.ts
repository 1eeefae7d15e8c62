import type { ActionContext } from "#outpost";
import { parseForm, publish, redirect } from "#outpost/server";
import { maxLength, minLength, object, string, trim } from "zod/mini";

export const EVENT_FIELDS = ["message"] as const;

const messageSchema = object({
  message: string({ error: "Please write a message" }).check(trim(), minLength(1, "Please write a message"), maxLength(500, "At most 500 characters")),
});

/** Publishes the message to channel `diagnostics` on every replica, then shows the page again (post/redirect/get). */
export async function action(context: ActionContext) {
  const parsed = parseForm(messageSchema, context.body, EVENT_FIELDS);
  if (!parsed.ok) return { errors: parsed.errors };
  await publish(context, "diagnostics", { message: parsed.data.message });
  redirect("/diagnostics/events", 303);
}
