import type { DocumentPayload, RuntimeConfig } from "../../shared/document/payload";
import type { BuildManifest } from "../assets/manifest";
import type { PageOutcome } from "./resolve-page";

type PageResult = Extract<PageOutcome, { type: "page" }> & { route: string };

export function documentPayload(
  outcome: PageResult,
  entry: BuildManifest["entry"],
  config: RuntimeConfig,
  traceMeta: Record<string, string>,
): DocumentPayload {
  return {
    route: outcome.route,
    page: outcome.page,
    head: {
      title: outcome.title,
      styles: entry.styles,
      modulePreloads: entry.modulePreloads,
      traceMeta,
    },
    config,
  };
}
