// The session's rebuilds as open pages see them: numbered updates, the last few kept for pages
// whose event stream missed some while the server restarted.
import { assetUrl } from "../../build/manifest.mjs";
import { describeUpdate } from "./update.mjs";

const KEPT = 20;

/** @param {{ outDir: string, isBoundary: (file: string) => boolean }} options */
export function hotUpdates({ outDir, isBoundary }) {
  let version = 0;
  let updates = [];
  let served = null; // the metafiles of the build the running server serves

  return {
    /** The update the current build brings over the served one (none for the first build). */
    next(files, { client, server }) {
      const after = { client, server };
      const before = served;
      served = after;
      if (!before) return null;
      version += 1;
      const update = describeUpdate({ version, files, before, after, isBoundary, toUrl: (output) => assetUrl(outDir, output) });
      updates = [...updates, update].slice(-KEPT);
      return update;
    },
    /** What a newly started server announces (src/shared/dev/hot-protocol.ts, DevState). */
    state() {
      return { version, updates, problems: [] };
    },
  };
}
