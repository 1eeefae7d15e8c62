import { type FormHTMLAttributes, type ReactNode, type SubmitEvent, useEffect, useRef, useState } from "react";
import { clientSubmission } from "../navigation/form-submission";
import { useRouter } from "../navigation/router-context";

export interface FormState {
  /** A submission is on its way; a second one is ignored until it is answered. */
  pending: boolean;
}

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "children"> {
  /** The page whose action receives the form (a GET form: the page it opens); the current page when absent. */
  action?: string;
  /** "post" (default): the page's action. "get": a navigation to `action` with the fields as its query. */
  method?: "get" | "post";
  /** A GET form's navigation replaces the history entry (a search box typed into). */
  replace?: boolean;
  /** A GET form's navigation keeps the scroll where it is. */
  preventScrollReset?: boolean;
  /** Shows the page it answers with through a view transition where the browser has them. */
  viewTransition?: boolean;
  children: ReactNode | ((state: FormState) => ReactNode);
}

/**
 * A GET form (`method="get"`: a filter, a search box) is a navigation to its action with the
 * fields as the query, which replaces the action's own; without JavaScript the browser does the same.
 *
 * A POST form for a page's action. Without JavaScript it is a plain `<form method="post">`
 * (post/redirect/get). With it, it submits with fetch, with no reload: the page answers with
 * its action data and freshly loaded data, or a redirect that is followed as a navigation.
 * While pending it says so (`data-pending`, `aria-busy`, and `children` as a function) and
 * ignores further submits; an answer with errors focuses its first field marked `aria-invalid`.
 * When only the browser can submit it, the form is submitted natively.
 *
 * A submit button's `formaction`, `formmethod` and `formenctype` override the form's, as they
 * do without JavaScript.
 */
export function Form({ action, method = "post", replace, preventScrollReset, viewTransition, children, onSubmit, ...form }: FormProps) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const answered = useRef(false);
  const nativeSubmit = useRef(false);

  // Once an answer has rendered: its first invalid field takes focus, so a screen reader reads
  // the field with its message (aria-describedby) instead of nothing at all.
  useEffect(() => {
    if (pending || !answered.current) return;
    answered.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [pending]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    // The browser's own submission of a form only it can send (below): let it go.
    if (nativeSubmit.current) return;
    onSubmit?.(event);
    if (event.defaultPrevented || !router) return;
    const element = event.currentTarget;
    const { submitter } = event;
    const submission = clientSubmission(element, submitter, method);
    if (!submission) return;
    event.preventDefault();
    const data = new FormData(element, submitter);
    if (submission.method === "get") {
      // A newer search replaces a pending one (the router aborts the older request).
      void router.navigate(getTarget(submission.action, data), { replace, preventScrollReset, viewTransition });
      return;
    }
    if (inFlight.current) return;
    const body = submission.enctype === "multipart/form-data" ? data : new URLSearchParams(data as unknown as Record<string, string>);
    inFlight.current = true;
    setPending(true);
    try {
      if ((await router.submit(submission.action, body, { viewTransition })) === "fallback") submitNatively(element, submitter);
      else answered.current = true;
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  // requestSubmit sends the submitter's name, value and form* attributes, which submit() drops;
  // it dispatches its submit event synchronously, so the flag covers exactly that event. A
  // submitter no longer this form's makes it throw: the form is still sent, without the button.
  const submitNatively = (element: HTMLFormElement, submitter: HTMLElement | null) => {
    nativeSubmit.current = true;
    try {
      element.requestSubmit(submitter?.isConnected ? submitter : null);
    } catch {
      element.submit();
    } finally {
      nativeSubmit.current = false;
    }
  };

  return (
    <form
      {...form}
      ref={formRef}
      method={method}
      action={action}
      onSubmit={submit}
      data-pending={pending ? "true" : undefined}
      aria-busy={pending || undefined}
    >
      {typeof children === "function" ? children({ pending }) : children}
    </form>
  );
}

/**
 * Where a GET form goes, as the browser builds it: the action with the fields as its whole query,
 * its fragment kept (without an action attribute, the page's own, `#section` included).
 */
function getTarget(action: string, data: FormData): string {
  const url = new URL(action);
  const query = new URLSearchParams();
  // A file field sends its file's name, as a browser's GET submission does.
  for (const [name, value] of data) query.append(name, typeof value === "string" ? value : value.name);
  url.search = query.toString();
  return url.href;
}
