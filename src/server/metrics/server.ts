import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServerOptions {
  registry: Registry;
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves GET /metrics on its own listener, so metrics are never on the public port. */
export function startMetricsServer({ registry, port, host = "0.0.0.0" }: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("Method Not Allowed\n");
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => {
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics collection failed\n");
      },
    );
  });
  // Scrapers are not slow clients; keep anything stuck from holding sockets open.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // A scraper's keep-alive socket would otherwise delay close until it times out.
            server.closeAllConnections();
          }),
      });
    });
  });
}
