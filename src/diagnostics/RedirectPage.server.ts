import { redirect } from "#outpost";

export function load(): never {
  redirect("/");
}
