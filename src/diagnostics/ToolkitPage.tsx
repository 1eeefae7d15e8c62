import { Form, Link, type PageProps, useBeforeUnload, useBlocker, useLocation, useNavigate, useSearchParams, useViewTransitionState } from "#outpost";
import { useState } from "react";
import type { load } from "./ToolkitPage.server";

/** The router's toolkit on one page: a GET filter, the URL's hooks, navigate(), a blocker and a view transition. */
export default function ToolkitPage({ data }: PageProps<"/diagnostics/toolkit", typeof load>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState("");
  const blocker = useBlocker(draft !== "");
  useBeforeUnload(draft !== "");
  const transitioning = useViewTransitionState();
  return (
    <section aria-labelledby="toolkit-title">
      <h1 id="toolkit-title">Router toolkit</h1>
      <Form method="get" id="toolkit-filter" role="search">
        <label htmlFor="toolkit-filter-q">Filter</label>
        <input id="toolkit-filter-q" name="q" defaultValue={searchParams.get("q") ?? ""} />
        <button type="submit">Filter</button>
      </Form>
      <p id="toolkit-q">{searchParams.get("q") ?? ""}</p>
      <p id="toolkit-loaded-q">{data.q}</p>
      <p id="toolkit-path">{location.pathname}</p>
      <p id="toolkit-transition">{transitioning ? "transitioning" : "still"}</p>
      <button type="button" id="toolkit-go" onClick={() => navigate("/diagnostics")}>
        Go to the diagnostics
      </button>{" "}
      <button type="button" id="toolkit-clear" onClick={() => setSearchParams({}, { replace: true })}>
        Clear the filter
      </button>{" "}
      <Link href="/diagnostics/search" id="toolkit-search">
        Search page
      </Link>{" "}
      <Link href="/diagnostics/search" id="toolkit-fade" viewTransition>
        Search page (view transition)
      </Link>
      <label htmlFor="toolkit-draft">Draft (unsaved while not empty)</label>
      <textarea id="toolkit-draft" value={draft} onChange={(event) => setDraft(event.target.value)} />
      {blocker.state === "blocked" ? (
        <div id="toolkit-blocked" role="alertdialog" aria-label="Unsaved changes">
          <p>{`Leave for ${blocker.location.pathname}? The draft is lost.`}</p>
          <button type="button" id="toolkit-proceed" onClick={blocker.proceed}>
            Leave
          </button>{" "}
          <button type="button" id="toolkit-stay" onClick={blocker.reset}>
            Stay
          </button>
        </div>
      ) : null}
    </section>
  );
}
