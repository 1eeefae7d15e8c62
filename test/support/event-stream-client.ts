import { type ClientRequest, type IncomingHttpHeaders, request } from "node:http";
import { connect, type Socket } from "node:net";
import { type ServerSentEvent, sseParser } from "#src/shared/events/sse-parser";
import { until } from "./raw-http";

/** An event stream read over real HTTP: every event, the comments (heartbeats), the retry hints, how it ended. */
export interface StreamClient {
  status: number;
  headers: IncomingHttpHeaders;
  events: ServerSentEvent[];
  /** The published messages' data, parsed. */
  messages(): unknown[];
  heartbeats: number;
  retries: number[];
  /** Resolves once the response ended: `clean` when it ended with its last chunk, false when the connection was cut. */
  ended: Promise<{ clean: boolean; at: number }>;
  /** Waits (polling, with a deadline) until the stream's events satisfy `predicate`. */
  waitFor(predicate: (client: StreamClient) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `url` as an event stream (Last-Event-ID when given); resolves once the status line is in. */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined;
    req = request(url, { headers: { Accept: "text/event-stream", ...headers }, agent: false }, (res) => {
      let endedResolve: (value: { clean: boolean; at: number }) => void = () => {};
      const ended = new Promise<{ clean: boolean; at: number }>((done) => {
        endedResolve = done;
      });
      const client: StreamClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        messages: () => client.events.filter((event) => event.type === "message").map((event) => JSON.parse(event.data)),
        heartbeats: 0,
        retries: [],
        ended,
        waitFor: (predicate, timeoutMs = 5_000) => until(() => predicate(client), timeoutMs),
        close: () => req?.destroy(),
      };
      const parser = sseParser(
        (event) => client.events.push(event),
        (ms) => client.retries.push(ms),
      );
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        client.heartbeats += chunk.split(":\n\n").length - 1;
        parser.push(chunk);
      });
      res.on("end", () => endedResolve({ clean: true, at: performance.now() }));
      res.on("close", () => endedResolve({ clean: res.complete, at: performance.now() }));
      res.on("error", () => {});
      resolve(client);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * A client that asks for a stream and then never reads: a tiny receive buffer, the socket paused,
 * so the server's writes back up. Resolves once the server has closed the connection.
 */
export function stalledStream(port: number, path: string): { socket: Socket; closed: Promise<void> } {
  const socket = connect({ port, host: "127.0.0.1" });
  socket.setNoDelay(true);
  // Never read: the kernel's receive window fills, then the server's send buffer, then its queue.
  socket.pause();
  const closed = new Promise<void>((resolve) => {
    socket.on("close", () => resolve());
    socket.on("end", () => resolve());
    socket.on("error", () => resolve());
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  return { socket, closed };
}
