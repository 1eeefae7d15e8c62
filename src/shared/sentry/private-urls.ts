/**
 * No query string or fragment leaves for error reporting, from either SDK: they carry tokens
 * and search terms. URLs keep their origin and path; anything that cannot be read as a URL
 * keeps only what comes before its first `?` or `#`.
 */

/** `url` without its query, fragment or user part. */
export function withoutQuery(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      return parsed.origin === "null" ? `${parsed.protocol}${parsed.pathname}` : parsed.origin + parsed.pathname;
    } catch {}
  }
  return url.replace(/[?#][\s\S]*$/, "");
}

// Span and breadcrumb data keys that hold a query or fragment alone, or a whole URL.
const QUERY_KEY = /query|fragment|search/i;
const URL_KEY = /url|target|referr?er|^from$|^to$|location|href|route/i;

function scrubData(data: Record<string, unknown> | undefined): void {
  if (!data) return;
  for (const [key, value] of Object.entries(data)) {
    if (QUERY_KEY.test(key)) delete data[key];
    else if (!URL_KEY.test(key)) continue;
    else if (typeof value === "string") data[key] = withoutQuery(value);
    // Header attributes (`http.request.header.referer`) are arrays of values.
    else if (Array.isArray(value)) data[key] = value.map((item) => (typeof item === "string" ? withoutQuery(item) : item));
  }
}

interface BreadcrumbLike {
  category?: string;
  message?: string;
  data?: Record<string, unknown>;
}

interface EventLike {
  request?: { url?: string; query_string?: unknown; headers?: Record<string, string> };
  breadcrumbs?: BreadcrumbLike[];
  contexts?: { trace?: { data?: Record<string, unknown> } };
  spans?: Array<{ data?: Record<string, unknown>; description?: string }>;
}

/** Strips queries and fragments from a breadcrumb in place (`beforeBreadcrumb`). */
export function scrubBreadcrumb<Breadcrumb extends BreadcrumbLike>(breadcrumb: Breadcrumb): Breadcrumb {
  scrubData(breadcrumb.data);
  // Navigation and request breadcrumbs put the URL in the message too.
  if (breadcrumb.message && /^(navigation|fetch|xhr|http)$/.test(breadcrumb.category ?? "")) breadcrumb.message = withoutQuery(breadcrumb.message);
  return breadcrumb;
}

/** Strips queries and fragments from an event or transaction in place: its request, breadcrumbs and spans. */
export function scrubEvent<Event extends EventLike>(event: Event): Event {
  const { request } = event;
  if (request) {
    if (request.url) request.url = withoutQuery(request.url);
    delete request.query_string;
    if (request.headers) {
      for (const name of Object.keys(request.headers)) {
        if (/^referr?er$/i.test(name)) request.headers[name] = withoutQuery(request.headers[name] as string);
      }
    }
  }
  for (const breadcrumb of event.breadcrumbs ?? []) scrubBreadcrumb(breadcrumb);
  scrubData(event.contexts?.trace?.data);
  for (const span of event.spans ?? []) {
    scrubData(span.data);
    if (span.description) span.description = withoutQuery(span.description);
  }
  return event;
}
