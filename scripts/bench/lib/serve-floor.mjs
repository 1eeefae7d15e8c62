// How every floor listens: an ephemeral loopback port, told to the orchestrator on stdout.

/** Listens on an ephemeral loopback port and prints `{"port":N}` for the orchestrator. */
export function serve(server) {
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
  // Exit normally on SIGTERM, so that a --cpu-prof run writes its profile.
  process.once("SIGTERM", () => process.exit(0));
}
