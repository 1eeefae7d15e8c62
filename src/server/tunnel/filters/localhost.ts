const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The event's page (`request.url`) was served from this machine: localhost, 127.0.0.1, ::1, *.localhost, or a file:// URL. */
export function fromLocalhost(event: Record<string, unknown>): boolean {
  const url = (event.request as { url?: unknown } | undefined)?.url;
  if (typeof url !== "string") return false;
  const parsed = URL.parse(url);
  if (!parsed) return false;
  if (parsed.protocol === "file:") return true;
  const host = parsed.hostname.toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith(".localhost");
}
