import { type FormHTMLAttributes, type ReactNode, type SubmitEvent, useEffect, useId, useMemo } from "react";
import type { DataOf } from "../routing/inferred-data";
import type { RouteError } from "../routing/module";
import { type SubmitTarget, toFormData } from "./form-data";
import { clientSubmission } from "./form-submission";
import { useRouter, useRouterState } from "./router-context";
import { type FetcherState, IDLE_FETCHER } from "./router-state";

export type { FetcherState } from "./router-state";

export interface FetcherOptions {
  /** Fetchers called with the same key share one request and its state, wherever they render. */
  key?: string;
}

export interface SubmitOptions {
  /** "post" (default) runs the page's action; "get" loads `action` with the data as its query. */
  method?: "post" | "get";
  /** The page whose action (or loader) receives it; the current page when absent. */
  action?: string;
}

export type { SubmitTarget } from "./form-data";

export interface FetcherFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "children"> {
  method?: "post" | "get";
  action?: string;
  children: ReactNode;
}

export interface Fetcher<Data = unknown> {
  state: FetcherState;
  /** The loader's data (load) or the action's (submit), once answered. */
  data: Data | undefined;
  /** The error the loader or action ended with, as an error component would see it. */
  error: RouteError | undefined;
  /** What is being submitted, until the page shows data loaded after the action: for optimistic UI. */
  formData: FormData | undefined;
  load(href: string): Promise<void>;
  submit(target: SubmitTarget, options?: SubmitOptions): Promise<void>;
  /** A form submitted through this fetcher. */
  Form: (props: FetcherFormProps) => ReactNode;
}

/**
 * A request that does not navigate: loads a page's loader data or submits to its action, with
 * its own state, data and submitted form data, kept in the router by the fetcher's key; many run
 * side by side. A submission revalidates the page once its action answered; a newer call of the
 * same fetcher replaces an older one; the last component using a key to unmount aborts its request.
 * `useFetcher<typeof action>()` (or `typeof load`) infers its data from the route's function.
 */
export function useFetcher<Source = unknown>(options: FetcherOptions = {}): Fetcher<DataOf<Source>> {
  const router = useRouter();
  const ownKey = useId();
  const key = options.key ?? ownKey;
  useEffect(() => router?.retainFetcher(key), [router, key]);

  const actions = useMemo(() => {
    const run = (href: string, formData: FormData | undefined): Promise<void> =>
      router ? router.fetch(key, href, formData ? { formData } : undefined) : Promise.resolve();
    const here = () => (typeof window === "undefined" ? "/" : window.location.pathname + window.location.search);
    const submit = (target: SubmitTarget, { method = "post", action }: SubmitOptions = {}): Promise<void> => {
      const formData = toFormData(target);
      const href = action ?? here();
      if (method === "post") return run(href, formData);
      const url = new URL(href, window.location.href);
      url.search = new URLSearchParams(formData as unknown as Record<string, string>).toString();
      return run(url.pathname + url.search, undefined);
    };
    function Form({ method = "post", action, children, onSubmit, ...form }: FetcherFormProps) {
      const send = (event: SubmitEvent<HTMLFormElement>) => {
        onSubmit?.(event);
        if (event.defaultPrevented || !router) return;
        const { submitter } = event;
        // The action is the resolved URL (this page's when there is none), or the submitter's formaction.
        const submission = clientSubmission(event.currentTarget, submitter, method);
        if (!submission) return;
        event.preventDefault();
        void submit(new FormData(event.currentTarget, submitter), { method: submission.method, action: submission.action });
      };
      return (
        <form {...form} method={method} action={action} onSubmit={send}>
          {children}
        </form>
      );
    }
    return { load: (href: string) => run(href, undefined), submit, Form };
  }, [router, key]);

  // Read with the page's state: the fetcher turns idle in the very update that shows the fresh data.
  const { state, data, error, formData } = useRouterState((routerState) => routerState.fetchers.get(key) ?? IDLE_FETCHER, IDLE_FETCHER);
  return { state, data: data as DataOf<Source> | undefined, error, formData, ...actions };
}
