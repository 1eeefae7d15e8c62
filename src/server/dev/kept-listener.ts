import type { Server } from "node:http";
import { DEV_LISTENER_GLOBAL, type DevMessage } from "../../shared/dev/hot-protocol";
import { listen } from "../lifecycle/http-server";

/** A listening socket's native handle, as IPC passes it between processes. */
type NativeHandle = object;

/**
 * Development only: one listening socket for the whole `npm run dev` session. The first server
 * listens and hands its socket to the dev script, which gives it to each next server
 * (scripts/dev/server.mjs). Told to hand over, a server stops accepting, ends its event streams
 * with their final chunk and says so; only then is it killed. A page's requests meanwhile (its
 * event stream reconnecting) wait in the socket's backlog for the next server, instead of being
 * refused or cut: no red console error in the page for a restart.
 */
export async function listenKept(server: Server, port: number, host: string, endStreams: () => Promise<void>): Promise<number> {
  const kept = (globalThis as Record<string, unknown>)[DEV_LISTENER_GLOBAL] as NativeHandle | undefined;
  let bound = port;
  if (kept) {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(kept, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } else {
    bound = await listen(server, port, host);
    // The native handle, not the server: the dev script must hold the socket without accepting on it.
    const handle = (server as unknown as { _handle: NativeHandle })._handle;
    process.send?.({ type: "outpost-dev:listening" }, handle as never);
  }
  process.on("message", (message: DevMessage) => {
    if (message.type !== "outpost-dev:handover") return;
    // Closes this process's copy of the socket only: the dev script keeps it listening.
    server.close();
    void endStreams().then(() => {
      server.closeIdleConnections();
      process.send?.({ type: "outpost-dev:handed-over" });
    });
  });
  return bound;
}
