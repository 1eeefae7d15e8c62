import { redirect } from "../../routing/signals";

export function redirectLoader(): never {
  redirect("/");
}

export function RedirectPage() {
  return <p>Unreachable: the loader redirects.</p>;
}
