import type { RouterEnvironment } from "./environment";

/**
 * How the router leaves for a document load: the browser loads `href`; this page loads again (so
 * that old code never reads new data); or a form, built by the caller, is submitted natively.
 */
export type Exit = { kind: "load"; href: string } | { kind: "reload" } | { kind: "submit"; form: HTMLFormElement };

/**
 * The router's one way out, for whatever only the browser itself can do (another origin, another
 * build, a network failure, a resource route, a redirect loop): it shows what happened.
 */
export function leave({ location, document }: Pick<RouterEnvironment, "location" | "document">, exit: Exit): void {
  if (exit.kind === "load") location.assign(exit.href);
  else if (exit.kind === "reload") location.reload();
  else {
    document.body.append(exit.form);
    exit.form.submit();
  }
}
