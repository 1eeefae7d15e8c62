import type { RouterEnvironment } from "./environment";

/**
 * How the router leaves for a document load: the browser loads `href`; this page loads again (so
 * that old code never reads new data); or a form is posted natively, as without JavaScript.
 */
export type Exit = { kind: "load"; href: string } | { kind: "reload" } | { kind: "post"; href: string; formData: FormData };

/**
 * The router's one way out, for whatever only the browser itself can do (another origin, another
 * build, a network failure, a resource route, a redirect loop): it shows what happened.
 */
export function leave({ location, document }: Pick<RouterEnvironment, "location" | "document">, exit: Exit): void {
  if (exit.kind === "load") location.assign(exit.href);
  else if (exit.kind === "reload") location.reload();
  else postNatively(document, exit.href, exit.formData);
}

function postNatively(document: RouterEnvironment["document"], href: string, formData: FormData): void {
  const form = document.createElement("form");
  form.method = "post";
  form.action = href;
  form.hidden = true;
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string") continue;
    const input = document.createElement("input");
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
