import { type HeadTags, type LoaderData, type PageProps, useFetcher } from "#outpost";
import type { load } from "./FetchersPage.server";

export const head = (): HeadTags => ({ title: "Fetchers · Diagnostics · Outpost" });

function Counter({ name, value }: { name: "a" | "b"; value: number }) {
  // The action's answer (+1), or the loader's when "Read" GETs the page through the same form.
  const fetcher = useFetcher<{ counter: string; value: number } | LoaderData<typeof load>>();
  const read = fetcher.data && "counts" in fetcher.data ? fetcher.data.counts[name] : undefined;
  // Optimistic: the value submitted shows until the page's data has it. Read from the form, not
  // added to the page's value: another fetcher's revalidation may already have brought that up.
  const submitted = fetcher.formData?.get("next");
  const shown = typeof submitted === "string" ? Number(submitted) : value;
  return (
    <section className="counter" data-counter={name}>
      <h2>{`Counter ${name.toUpperCase()}`}</h2>
      <output id={`counter-${name}`}>{shown}</output>
      <fetcher.Form>
        <input type="hidden" name="counter" value={name} />
        <input type="hidden" name="next" value={value + 1} />
        <button type="submit" id={`inc-${name}`}>
          +1
        </button>{" "}
        {/* The button's formMethod overrides the form's POST: a load, not an increment. */}
        <button type="submit" formMethod="get" id={`read-${name}`}>
          Read
        </button>{" "}
        <span id={`read-value-${name}`}>{read === undefined ? "" : `read ${read}`}</span>
      </fetcher.Form>
      <p>
        {"Fetcher: "}
        <span data-fetcher-state={fetcher.state}>{fetcher.state}</span>
      </p>
    </section>
  );
}

/** Reads the counters through a fetcher's load: this page's loader, without a navigation. */
function Peek() {
  const fetcher = useFetcher<LoaderData<typeof load>>();
  return (
    <p>
      <button type="button" id="peek" onClick={() => void fetcher.load("/diagnostics/fetchers")}>
        Peek
      </button>{" "}
      <span id="peeked" data-fetcher-state={fetcher.state}>
        {fetcher.data ? `a ${fetcher.data.counts.a}, b ${fetcher.data.counts.b}` : ""}
      </span>
    </p>
  );
}

/** Two counters, each incremented through its own fetcher: side by side, without a navigation. */
export default function FetchersPage({ data }: PageProps<LoaderData<typeof load>>) {
  return (
    <section aria-labelledby="fetchers-title">
      <h1 id="fetchers-title">Fetchers</h1>
      <Counter name="a" value={data.counts.a} />
      <Counter name="b" value={data.counts.b} />
      <Peek />
    </section>
  );
}
