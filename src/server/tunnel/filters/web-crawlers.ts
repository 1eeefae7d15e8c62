import { isbot } from "isbot";

/** The header's value whatever its name's case (`User-Agent`, `user-agent`); headers come as an object or as [name, value] pairs. */
function headerValue(headers: unknown, name: string): string | undefined {
  const entries = Array.isArray(headers) ? headers : typeof headers === "object" && headers !== null ? Object.entries(headers) : [];
  for (const entry of entries) {
    if (Array.isArray(entry) && typeof entry[0] === "string" && entry[0].toLowerCase() === name && typeof entry[1] === "string") return entry[1];
  }
  return undefined;
}

/** The event's browser (`request.headers.User-Agent`) is a crawler, as isbot tells. */
export function fromWebCrawler(event: Record<string, unknown>): boolean {
  const userAgent = headerValue((event.request as { headers?: unknown } | undefined)?.headers, "user-agent");
  return userAgent !== undefined && isbot(userAgent);
}
