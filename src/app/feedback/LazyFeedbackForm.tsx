import { Suspense, use } from "react";
import { FEEDBACK_PATH } from "./fields";
import type { FeedbackFormProps } from "./FeedbackForm";

// The error pages are part of every page's initial JavaScript (the root layout's error
// component, the platform's last resort), yet rarely shown: their form (and <Form>) is a chunk
// of its own, fetched when one renders. /feedback imports the form directly.
type FormModule = typeof import("./FeedbackForm");

let loading: Promise<FormModule | null> | undefined;
let loaded: FormModule | undefined;

/** The form's module, or null when its chunk failed to load (network, a deploy removed it). */
function loadForm(): Promise<FormModule | null> {
  loading ??= import("./FeedbackForm").then(
    (module) => (loaded = module),
    () => null,
  );
  return loading;
}

// The server loads it at once, so that its error pages hold the form inline (visitors without
// JavaScript post it as it is) instead of streaming it in after the shell.
if (typeof document === "undefined") void loadForm();

/**
 * The feedback form, loaded on demand. In the browser its boundary stays as the server rendered
 * it until the chunk is there (the rest of the page hydrates meanwhile); should the chunk fail to load, a
 * link to /feedback with the event id takes its place.
 */
export function LazyFeedbackForm(props: FeedbackFormProps) {
  return (
    <Suspense fallback={null}>
      <LoadedForm {...props} />
    </Suspense>
  );
}

function LoadedForm(props: FeedbackFormProps) {
  const module = loaded ?? use(loadForm());
  if (module) return <module.FeedbackForm {...props} />;
  const query = props.eventId ? `?eventId=${encodeURIComponent(props.eventId)}` : "";
  return (
    <p>
      <a href={FEEDBACK_PATH + query}>Send us feedback</a>
    </p>
  );
}
