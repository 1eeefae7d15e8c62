import type { RouteError } from "#outpost";

const TITLES: Record<number, string> = {
  400: "This address is not valid",
  401: "Please sign in",
  403: "Not allowed",
  404: "Not found",
  429: "Too many requests",
};

/**
 * The error page's heading for a status a route chose, and (with the site's name) its document
 * title. Apart from ErrorPage.tsx so that module exports components only (Fast Refresh swaps it).
 */
export function errorTitle(error: RouteError): string {
  if (!error.status) return "Something went wrong";
  return TITLES[error.status] ?? "The page could not be shown";
}
