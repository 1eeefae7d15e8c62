import { type DocumentPayload, PAYLOAD_GLOBAL, type RuntimeConfig } from "../../shared/document/payload";
import { serializeForScript } from "../../shared/document/serialize";
import type { RouteState } from "../../shared/routing/route-state";

/**
 * The inline bootstrap script assigning the page's payload. The build id and runtime config
 * are the same for every page, so they are serialized once: the script is byte for byte what
 * serializing the whole `DocumentPayload` gives (same fields, same order).
 */
export function payloadScript(buildId: string, config: RuntimeConfig): (state: RouteState, traceMeta: Record<string, string>) => string {
  const tail: Omit<DocumentPayload, "state" | "traceMeta"> = { buildId, config };
  const buildIdJson = serializeForScript(tail.buildId);
  const configJson = serializeForScript(tail.config);
  return (state, traceMeta) =>
    `window.${PAYLOAD_GLOBAL}={"state":${serializeForScript(state)},"buildId":${buildIdJson},"traceMeta":${serializeForScript(traceMeta)},"config":${configJson}}`;
}
