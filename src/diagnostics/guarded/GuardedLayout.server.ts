import type { RouteMiddleware } from "#outpost";
import { redirect, requestValue } from "#outpost/server";

/** The visitor's name, set by the middleware below for the routes under the layout. */
export const visitorName = requestValue<string>("visitorName");

/** Only visitors who told the session page their name get in; the others are sent there. */
export const middleware: RouteMiddleware[] = [
  ({ session, values }) => {
    const name = session.get<string>("name");
    if (!name) redirect("/diagnostics/session", 303);
    values.set(visitorName, name);
  },
];
