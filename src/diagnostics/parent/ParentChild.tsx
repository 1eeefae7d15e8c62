import { useRevalidator, useRouteLoaderData } from "#outpost";
import type { load } from "./ParentLayout.server";

/** No loader: shows its layout's data, read through useRouteLoaderData (also after client navigations and revalidations). */
export default function ParentChild() {
  const parent = useRouteLoaderData<typeof load>("/diagnostics/parent");
  const { revalidate } = useRevalidator();
  return (
    <div>
      <p>
        {"From the layout: "}
        <span id="parent-label">{parent?.label}</span>
        {", served at "}
        <span id="parent-served-at">{parent?.servedAt}</span>
      </p>
      <button type="button" id="parent-revalidate" onClick={() => void revalidate()}>
        Revalidate
      </button>
    </div>
  );
}
