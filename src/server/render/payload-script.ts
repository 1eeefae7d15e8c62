import { type DocumentPayload, PAYLOAD_GLOBAL, type RuntimeConfig } from "../../shared/document/payload";
import { serializeAsScriptValue } from "../../shared/document/serialize";
import type { RouteState } from "../../shared/routing/route-state";

/**
 * The inline bootstrap script assigning the page's payload. The build id and runtime config
 * are the same for every page, so they are serialized once: the script is byte for byte what
 * serializing the whole `DocumentPayload` gives (same fields, same order). A page with deferred
 * values sends its loader data as `stream`, the first line of its encoding, instead of in `state`.
 */
export function payloadScript(
  buildId: string,
  config: RuntimeConfig,
): (state: RouteState, traceMeta: Record<string, string>, stream?: string) => string {
  const tail: Omit<DocumentPayload, "state" | "traceMeta"> = { buildId, config };
  const buildIdJson = serializeAsScriptValue(tail.buildId);
  const configJson = serializeAsScriptValue(tail.config);
  return (state, traceMeta, stream) =>
    `window.${PAYLOAD_GLOBAL}={"state":${serializeAsScriptValue(state)},"buildId":${buildIdJson},"traceMeta":${isEmpty(traceMeta) ? "{}" : serializeAsScriptValue(traceMeta)},"config":${configJson}${
      stream === undefined ? "" : `,"stream":${serializeAsScriptValue(stream)}`
    }}`;
}

/** No trace to continue (tracing off, a cached page): written as JSON writes an empty object, without serializing it. */
function isEmpty(record: Record<string, string>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return false;
  return true;
}
