import { type AnchorHTMLAttributes, type MouseEvent, useContext, useRef } from "react";
import { navigationTarget } from "./navigation-target";
import { type Router, RouterContext } from "./router-context";

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  /** "intent" (default): hovering or focusing for a moment fetches the page's data, code and stylesheets. */
  prefetch?: "intent" | "none";
  replace?: boolean;
  /** A plain link: the browser loads the document. */
  reloadDocument?: boolean;
  /** Keeps the scroll where it is (tabs, pagination in place). */
  preventScrollReset?: boolean;
  /** Kept in the history entry: `useLocation().state` on the page it opens. */
  state?: unknown;
  /** Shows the page it opens through a view transition where the browser has them. */
  viewTransition?: boolean;
}

// Long enough that a pointer passing over a link fetches nothing.
const INTENT_DELAY_MS = 100;

/**
 * An `<a>` that navigates on the client where it can. Modified clicks (new tab or window,
 * download), other targets, other origins and links to the same page's fragments are left to
 * the browser, as is everything without JavaScript.
 */
export function Link(props: LinkProps) {
  const router = useContext(RouterContext);
  // The server (no router) renders a plain anchor, with none of the client link's hooks.
  if (!router || props.reloadDocument) {
    const { prefetch: _prefetch, replace: _replace, reloadDocument: _reload, preventScrollReset: _keep, state: _state, viewTransition: _vt, ...anchor } = props;
    return <a {...anchor} />;
  }
  return <ClientLink {...props} router={router} />;
}

function ClientLink({
  href,
  prefetch = "intent",
  replace,
  reloadDocument: _reload,
  preventScrollReset,
  state,
  viewTransition,
  router,
  ...anchor
}: LinkProps & { router: Router }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Only this origin's http(s) URLs: the browser itself handles every other href.
  const target = () => {
    const decided = navigationTarget(href, window.location.href);
    return decided.kind === "client" ? decided.url : null;
  };
  const startIntent = () => {
    if (prefetch === "none") return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const url = target();
      if (url) router.prefetch(url.href);
    }, INTENT_DELAY_MS);
  };
  const endIntent = () => clearTimeout(timer.current);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    anchor.onClick?.(event);
    endIntent();
    if (event.defaultPrevented || !isPlainClick(event) || !ownTarget(anchor.target) || anchor.download !== undefined) return;
    const url = target();
    if (!url) return;
    const here = window.location;
    // Same document, another fragment: the browser scrolls to it by itself.
    if (url.hash && url.pathname === here.pathname && url.search === here.search) return;
    event.preventDefault();
    void router.navigate(url.href, { replace, preventScrollReset, state, viewTransition });
  };

  return (
    <a
      href={href}
      {...anchor}
      onClick={onClick}
      onMouseEnter={(event) => {
        anchor.onMouseEnter?.(event);
        startIntent();
      }}
      onMouseLeave={(event) => {
        anchor.onMouseLeave?.(event);
        endIntent();
      }}
      onFocus={(event) => {
        anchor.onFocus?.(event);
        startIntent();
      }}
      onBlur={(event) => {
        anchor.onBlur?.(event);
        endIntent();
      }}
    />
  );
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

function ownTarget(target: string | undefined): boolean {
  return !target || target === "_self";
}
