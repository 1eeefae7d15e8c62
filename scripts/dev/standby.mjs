// The next dev server, started ahead of time: it imports the server's external packages
// (argv after the server folder) while nothing has changed, then waits. Told to run, it
// imports the fresh build the way `node --import instrument.js index.js` would, so a restart
// only compiles the app's own code. Run by scripts/dev/server.mjs, never by hand.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [serverDir, ...packages] = process.argv.slice(2);
// The dev script is gone (even SIGKILLed): do not outlive it holding the port.
process.on("disconnect", () => process.exit(0));

// A package that fails here fails again, with its real context, when the app imports it.
await Promise.allSettled(packages.map((name) => import(name)));

process.once("message", async ({ state }, listener) => {
  // The dev events' state for this server (src/shared/dev/hot-protocol.ts, DEV_STATE_GLOBAL).
  globalThis.__outpostDevState = state;
  // The socket the previous server listened on, to listen on in turn (DEV_LISTENER_GLOBAL).
  if (listener) globalThis.__outpostDevListener = listener;
  // Sentry, when it is on, must hook module loading before the app imports Koa: instrument.js
  // first. (With a DSN the dev script has preloaded only Sentry's own packages.)
  await import(pathToFileURL(path.join(serverDir, "instrument.js")).href);
  await import(pathToFileURL(path.join(serverDir, "index.js")).href);
  // index.js's top-level await ends once it listens: saves the dev script polling for it.
  process.send("started");
});
process.send("preloaded");
