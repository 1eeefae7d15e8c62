/**
 * What the router needs only once a page's data has arrived: the next page's stylesheets, the
 * data it keeps from the page on screen, and how it is shown. A chunk of its own, fetched as
 * the first page request starts (router-core.ts `landingCode`), alongside its data: a visit that
 * only reads the first page loads none of it.
 */
export { fetchStylesheets } from "./core/stylesheets";
export { withKeptData } from "./kept-data";
export { commit } from "./commit";
