import { redirect } from "../../shared/routing/signals";

export function load(): never {
  redirect("/");
}
