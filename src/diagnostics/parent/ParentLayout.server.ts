/** The layout's data, read by its child through useRouteLoaderData; `servedAt` tells a revalidation's from the first. */
export function load() {
  return { label: "parent data", servedAt: Date.now() };
}
