import { hydrateRoot } from "react-dom/client";
import { App } from "../shared/document/App";
import { type DocumentPayload, PAYLOAD_GLOBAL } from "../shared/document/payload";
import { routes } from "../shared/routes";
import { initErrorReporting, rootErrorHooks } from "./monitoring/error-reporting";
import { PageBoundary } from "./page-boundary";
import "./styles.css";

declare global {
  interface Window {
    [PAYLOAD_GLOBAL]: DocumentPayload;
  }
}

const payload = window[PAYLOAD_GLOBAL];
const reporting = initErrorReporting(payload);

hydrateRoot(
  document,
  <App payload={payload} routes={routes} PageBoundary={PageBoundary} />,
  reporting ? rootErrorHooks() : {},
);

if (process.env.NODE_ENV === "development") {
  void import("./dev-reload").then((module) => module.watchForReload());
}
