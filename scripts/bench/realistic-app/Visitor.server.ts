import type { ActionContext, LoaderContext } from "../../../src/shared/routing/module";

/** Reads the visitor's name from the signed session cookie. */
export function load({ session }: LoaderContext): { name: string } {
  return { name: session.get<string>("name") ?? "guest" };
}

/** The bench posts here once to get a session cookie to send with every load. */
export function action({ session }: ActionContext): { saved: true } {
  session.set("name", "guest");
  return { saved: true };
}
