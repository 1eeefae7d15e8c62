import { hydrateRoot } from "react-dom/client";
import { App } from "../shared/document/App";
import { type DocumentPayload, PAYLOAD_GLOBAL } from "../shared/document/payload";
import { routes } from "../shared/routes";
import { announcingErrors } from "./dev/error-hooks";
import { queueEarlyErrors, rootErrorHooks } from "./monitoring/error-queue";
import { PageBoundary } from "./page-boundary";
import "./styles.css";

declare global {
  interface Window {
    [PAYLOAD_GLOBAL]: DocumentPayload;
  }
}

const payload = window[PAYLOAD_GLOBAL];
const { sentryDsn } = payload.config;

if (sentryDsn) {
  queueEarlyErrors();
  const start =
    payload.config.tracesSampleRate > 0
      ? import("./monitoring/tracing").then((module) => module.startErrorReportingWithTracing)
      : import("./monitoring/error-reporting").then((module) => module.startErrorReporting);
  void start.then((startReporting) => startReporting({ ...payload, config: { ...payload.config, sentryDsn } }));
}

const errorHooks = sentryDsn ? rootErrorHooks : {};
hydrateRoot(
  document,
  <App payload={payload} routes={routes} PageBoundary={PageBoundary} />,
  process.env.NODE_ENV === "development" ? announcingErrors(errorHooks) : errorHooks,
);

if (process.env.NODE_ENV === "development") {
  void import("./dev/hot-client").then((module) => module.startHotUpdates());
}
