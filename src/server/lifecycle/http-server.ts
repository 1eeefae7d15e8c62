import { createServer, type RequestListener, type Server } from "node:http";

/**
 * Timeouts against slow clients. keepAliveTimeout sits above the usual 60 s idle timeout of
 * load balancers so they, not we, close idle connections (avoiding resets on reuse);
 * headersTimeout bounds a slow-loris header trickle; requestTimeout bounds a whole request,
 * generous enough for a large tunnel upload on a slow link.
 */
export const SERVER_TIMEOUTS = {
  keepAliveTimeoutMs: 65_000,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
} as const;

export function createHttpServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}
