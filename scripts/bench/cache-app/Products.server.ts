// The realistic page's loader, run for every request: the uncached side of the pair.
export { load } from "../realistic-app/Products.server";
