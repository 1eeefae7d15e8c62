import { type ActionContext, type LoaderContext, redirect } from "#outpost";

/** Counts this session's visits to the page (a client navigation's data request counts too). */
export function load({ session }: LoaderContext) {
  const visits = (session.get<number>("visits") ?? 0) + 1;
  session.set("visits", visits);
  const name = session.get<string>("name") ?? "";
  return { visits, name, greeting: "Hello" };
}

/** Stores the name in the session, or ends the session (`intent=clear`); post/redirect/get either way. */
export function action({ body, session }: ActionContext) {
  const fields = (body ?? {}) as Record<string, unknown>;
  if (fields.intent === "clear") {
    session.clear();
    return redirect("/diagnostics/session", 303);
  }
  const name = typeof fields.name === "string" ? fields.name.trim().slice(0, 100) : "";
  session.set("name", name);
  return redirect("/diagnostics/session", 303);
}
