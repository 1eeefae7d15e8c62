import { type HeadTags, Link } from "#outpost";

export const head = (): HeadTags => ({ title: "Diagnostics · Outpost" });

// Walked with client navigation after a deploy: each link exercises one error path.
const PATHS = [
  { href: "/diagnostics/server-error", label: "Loader error (server)" },
  { href: "/diagnostics/render-error", label: "Render error (server)" },
  { href: "/diagnostics/client-error", label: "Client error (browser)" },
  { href: "/diagnostics/redirect", label: "Redirect signal" },
  { href: "/diagnostics/missing-page", label: "Missing page (no route)" },
  { href: "/diagnostics/session", label: "Session (visits, a name)" },
  { href: "/diagnostics/forbidden", label: "Forbidden (a 403 from a loader)" },
  { href: "/diagnostics/guarded/inner", label: "Guarded (middleware redirect)" },
  { href: "/diagnostics/api/echo?hello=world", label: "Resource route (JSON echo)" },
  { href: "/diagnostics/cached", label: "Cached page (ETag, 304)" },
  { href: "/diagnostics/prerendered", label: "Prerendered page (built once)" },
  { href: "/diagnostics/fetchers", label: "Fetchers (two counters side by side)" },
  { href: "/diagnostics/revalidation/first", label: "Revalidation (a layout loader kept between its children)" },
  { href: "/diagnostics/deferred", label: "Deferred data (streams in)" },
  { href: "/diagnostics/limited", label: "Rate limit (three visits a minute)" },
  { href: "/diagnostics/search?page=2&sort=desc", label: "Search params (a validated query; a bad one answers 400)" },
  { href: "/diagnostics/parent/child", label: "Parent data (a layout's loader data read by its child)" },
  { href: "/diagnostics/events", label: "Live events (published on any replica)" },
  { href: "/", label: "Home" },
];

export default function DiagnosticsIndex() {
  return (
    <section aria-labelledby="diagnostics-title">
      <h1 id="diagnostics-title">Diagnostics</h1>
      <ul className="diagnostics-links">
        {PATHS.map(({ href, label }) => (
          <li key={href}>
            <Link href={href}>{label}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
