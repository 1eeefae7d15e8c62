import { type FormHTMLAttributes, type ReactNode, type SubmitEvent, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { DataOf } from "../routing/inferred-data";
import type { RouteError } from "../routing/module";
import type { FetchAnswer } from "./fetcher-request";
import { useRouter } from "./router-context";

export type FetcherState = "idle" | "submitting" | "loading";

export interface SubmitOptions {
  /** "post" (default) runs the page's action; "get" loads `action` with the data as its query. */
  method?: "post" | "get";
  /** The page whose action (or loader) receives it; the current page when absent. */
  action?: string;
}

export type SubmitTarget = FormData | URLSearchParams | Record<string, string>;

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

interface Status {
  state: FetcherState;
  data: unknown;
  error: RouteError | undefined;
  formData: FormData | undefined;
  /** After an action: loading until the page's data is this fresh (see Router.freshAsOf). */
  waitFor?: number;
}

const IDLE: Status = { state: "idle", data: undefined, error: undefined, formData: undefined };
const noSubscription = () => () => {};
const never = () => 0;

function toFormData(target: SubmitTarget): FormData {
  if (target instanceof FormData) return target;
  const data = new FormData();
  const entries = target instanceof URLSearchParams ? target.entries() : Object.entries(target);
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

/**
 * A request that does not navigate: loads a page's loader data or submits to its action, with
 * its own state, data and submitted form data; many run side by side. A submission revalidates
 * the page once its action answered; a newer call of the same fetcher replaces an older one.
 * `useFetcher<typeof action>()` (or `typeof load`) infers its data from the route's function.
 */
export function useFetcher<Source = unknown>(): Fetcher<DataOf<Source>> {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(IDLE);
  const latest = useRef<AbortController | undefined>(undefined);

  const actions = useMemo(() => {
    const run = async (href: string, formData: FormData | undefined): Promise<void> => {
      if (!router) return;
      latest.current?.abort();
      const controller = new AbortController();
      latest.current = controller;
      const current = () => latest.current === controller;
      setStatus((status) => ({ ...status, state: formData ? "submitting" : "loading", formData, waitFor: undefined }));
      let answer: FetchAnswer;
      try {
        answer = await router.fetch(href, formData ? { formData } : undefined, controller.signal);
      } catch {
        // Replaced by a newer call, or a resource route's answer could not be read.
        if (current()) setStatus((status) => ({ ...status, state: "idle", formData: undefined, error: { message: "the request failed" } }));
        return;
      }
      if (!current() || answer.kind === "left") return;
      if (answer.kind === "redirected") return setStatus((status) => ({ ...status, state: "idle", formData: undefined }));
      const { data, error, revalidation } = answer;
      if (revalidation === undefined) setStatus({ state: "idle", data, error, formData: undefined });
      else setStatus({ state: "loading", data, error, formData, waitFor: revalidation });
    };
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
        event.preventDefault();
        // The form's action property is its resolved URL (this page's when there is none).
        void submit(new FormData(event.currentTarget, event.submitter), { method, action: event.currentTarget.action });
      };
      return (
        <form {...form} method={method} action={action} onSubmit={send}>
          {children}
        </form>
      );
    }
    return { load: (href: string) => run(href, undefined), submit, Form };
  }, [router]);

  // Read with the page's state: the fetcher turns idle in the very render that shows the fresh data.
  const freshAsOf = useSyncExternalStore(router ? router.subscribe : noSubscription, router ? router.freshAsOf : never, never);
  const settled = status.waitFor !== undefined && freshAsOf >= status.waitFor;
  const { state, error, formData } = settled ? { ...status, state: "idle" as const, formData: undefined } : status;
  return { state, data: status.data as DataOf<Source> | undefined, error, formData, ...actions };
}
