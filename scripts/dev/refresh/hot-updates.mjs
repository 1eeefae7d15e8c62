// The session's rebuilds as open pages see them: numbered updates, the last few kept for pages
// whose event stream missed some while the server restarted. A rebuild's client part goes out
// as soon as the client half is built, through the running server, before the server half is
// built and the server replaced.
import { assetUrl } from "../../build/manifest.mjs";
import { describeUpdate, hasClientPart } from "./update.mjs";

const KEPT = 20;

/**
 * @param {{ outDir: string, server: { tell(message: object): Promise<void> },
 *   modules: Pick<Parameters<typeof describeUpdate>[0], "isBoundary" | "otherExports" | "routeIdOf" | "routeTables"> }} options
 *   `modules`: what describeUpdate needs to know of the app's modules
 */
export function hotUpdates({ outDir, modules, server }) {
  let version = 0;
  let updates = [];
  let served = null; // the metafiles of the build the running server serves, or pages have
  let recorded = null; // the files whose update went out ahead of the restart
  let delivering = null; // that client part, until open pages have applied it

  const record = (files, halves) => {
    const after = { client: halves.client.metafile, server: halves.server.metafile, styles: halves.client.styles };
    const before = served;
    served = after;
    if (!before) return null; // the first build
    version += 1;
    const update = describeUpdate({ version, files, before, after, ...modules, toUrl: (output) => assetUrl(outDir, output) });
    if (update.reload) console.log(`[dev] open pages reload: ${update.reasons.join("; ")}`);
    updates = [...updates, update].slice(-KEPT);
    return update;
  };

  return {
    /** The client half is built: open pages apply what they can of it now; resolves once they have. */
    sendClientPart(files, halves, since) {
      const update = record(files, halves);
      recorded = new Set(files);
      if (!update || !hasClientPart(update)) return Promise.resolve();
      const message = { type: "outpost-dev:update", update, files: halves.client.files };
      delivering = server.tell(message).then(() => {
        console.log(`[dev] pages updated in place in ${Math.round(performance.now() - since)} ms`);
      });
      return delivering;
    },
    /** A build failed: the fix's restart records an update of its own. */
    forget() {
      recorded = null;
    },
    /**
     * What the next server announces (src/shared/dev/hot-protocol.ts, DevState); resolves once
     * pages have the client part, so the old server may go.
     */
    async beforeRestart(files, halves) {
      // Files changed since (a loader saved while the client half built) need an update too, as
      // does a client half built again without sending its part (a newer change was waiting).
      if (!recorded || served?.client !== halves.client.metafile || files.some((file) => !recorded.has(file))) record(files, halves);
      recorded = null;
      await delivering;
      delivering = null;
      return { version, updates, problems: [] };
    },
  };
}
