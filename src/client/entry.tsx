// The browser's entry point. Its code is in ./start, which the lazily loaded chunks share.
import { RELOAD_ONCE_GLOBAL } from "../shared/document/recovery";
import { ChunkLoadError } from "./recovery/import-with-retry";
import { start } from "./start";

declare global {
  interface Window {
    /** Defined by the document's recovery script (src/server/render/recovery-script.ts). */
    [RELOAD_ONCE_GLOBAL]?: () => boolean;
  }
}

await start().catch((error: unknown) => {
  // A chunk hydration needs is missing even after its retries: the document loads again, once;
  // otherwise the page stays as the server rendered it and the error is reported.
  if (!(error instanceof ChunkLoadError && window[RELOAD_ONCE_GLOBAL]?.())) throw error;
});
