import { createServer, type RequestListener, type Server } from "node:http";
import type { Duplex } from "node:stream";

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
  // CONNECT asks a proxy for a tunnel and never reaches Koa; unheard, Node drops the socket silently.
  server.on("connect", (_request, socket: Duplex) => {
    socket.on("error", () => {});
    socket.end(CONNECT_REFUSAL);
  });
  return server;
}

const CONNECT_BODY = "CONNECT is not served: this server is not a proxy\n";
const CONNECT_REFUSAL =
  "HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\n" +
  `Content-Length: ${Buffer.byteLength(CONNECT_BODY)}\r\nConnection: close\r\n\r\n${CONNECT_BODY}`;

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
