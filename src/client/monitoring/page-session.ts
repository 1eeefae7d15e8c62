import { observeErrors } from "./error-queue";
import type { ReportingPayload } from "./sentry-client";
import { tunnelUrl } from "./tunnel-url";

/**
 * The page's release-health session, as Sentry's browserSessionIntegration keeps it (one per
 * page load, `unhandled` from its first error on: every error reported here is unhandled), but
 * without the SDK, which loads only at the first error: a session envelope posted to the tunnel
 * when reporting starts, and once more at the first error.
 */
export function startPageSession({ config }: ReportingPayload): void {
  const tunnel = tunnelUrl(config.sentryDsn, config.tunnelPath);
  const sid = [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const session = { sid, init: true, started: new Date().toISOString(), status: "ok", errors: 0 };
  let started = false;
  const send = () => {
    started = true;
    const sentAt = new Date().toISOString();
    const item = { ...session, timestamp: sentAt, attrs: { release: config.release, environment: config.environment } };
    const body = `${JSON.stringify({ sent_at: sentAt, dsn: config.sentryDsn })}\n{"type":"session"}\n${JSON.stringify(item)}`;
    session.init = false;
    // Like the SDK's transport: kept alive past an unload, and a failure is only a lost update.
    fetch(tunnel, { method: "POST", body, keepalive: true, referrerPolicy: "strict-origin" }).catch(() => {});
  };
  observeErrors(() => {
    if (session.status !== "ok") return;
    session.status = "unhandled";
    session.errors = 1;
    if (started) send();
  });
  send();
}
