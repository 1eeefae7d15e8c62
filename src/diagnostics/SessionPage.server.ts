import type { ActionContext, LoaderContext } from "#outpost";
import { httpError, redirect } from "#outpost/server";

/** The flashed message's key: shown once, by the first request to read it. */
const FLASH = "message";

/** Counts this session's visits to the page (a client navigation's data request counts too), concurrent ones each once. */
export function load({ session }: LoaderContext) {
  const visits = session.increment("visits");
  const name = session.get<string>("name") ?? "";
  const flash = session.get<string>(FLASH) ?? null;
  return { visits, name, flash, greeting: "Hello" };
}

/** Stores the name, flashes a message (`intent=flash`) or ends the session (`intent=clear`); post/redirect/get each time. */
export function action({ body, session }: ActionContext) {
  const fields = (body ?? {}) as Record<string, unknown>;
  if (fields.intent === "clear") {
    session.clear();
  } else if (fields.intent === "flash") {
    const message = typeof fields.message === "string" ? fields.message.trim().slice(0, 200) : "";
    if (!message) httpError(400, { message: "intent=flash needs a message field that is not empty" });
    session.flash(FLASH, message);
  } else {
    const name = typeof fields.name === "string" ? fields.name.trim().slice(0, 100) : "";
    session.set("name", name);
  }
  return redirect("/diagnostics/session", 303);
}
