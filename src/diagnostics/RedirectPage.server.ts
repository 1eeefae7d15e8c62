import { redirect } from "#outpost/server";

export function load(): never {
  redirect("/");
}
