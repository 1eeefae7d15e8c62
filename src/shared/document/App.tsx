import { type ComponentType, Fragment, type ReactNode } from "react";
import { ErrorPage } from "../pages/ErrorPage";
import { NotFoundPage } from "../pages/NotFoundPage";
import { routeByPattern } from "../routing/find-route";
import type { RouteDefinition } from "../routing/route";
import { Document } from "./Document";
import type { DocumentPayload } from "./payload";

export interface AppProps {
  payload: DocumentPayload;
  routes: readonly RouteDefinition[];
  /** The browser wraps the page in an error boundary; the server renders it bare. */
  PageBoundary?: ComponentType<{ children: ReactNode }>;
}

export function App({ payload, routes, PageBoundary = Fragment }: AppProps) {
  return (
    <Document head={payload.head}>
      <PageBoundary>
        <PageContent payload={payload} routes={routes} />
      </PageBoundary>
    </Document>
  );
}

function PageContent({ payload, routes }: Omit<AppProps, "PageBoundary">) {
  const { page } = payload;
  if (page.kind === "not-found") return <NotFoundPage />;
  if (page.kind === "error") return <ErrorPage error={page.error} />;
  const route = routeByPattern(routes, page.routePath);
  if (!route) return <NotFoundPage />;
  const Page = route.component;
  return <Page data={page.data} params={page.params} />;
}
