import { type ClientRequest, type IncomingHttpHeaders, request as httpRequest } from "node:http";
import { connect } from "node:net";

// Raw HTTP for tests that need what fetch hides: chunked or oversized bodies, exact headers.

/** Polls until `predicate` holds; for state with no event to wait on. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface ClientResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): { detail?: string };
  text(): string;
}

export interface PostOptions {
  method?: string;
  headers?: Record<string, string>;
  /** One buffer is sent with a Content-Length; an array is sent chunked, one write each. */
  body?: Buffer | Buffer[];
}

function collect(req: ClientRequest): Promise<ClientResponse> {
  return new Promise((resolve, reject) => {
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: () => JSON.parse(body.toString("utf8")),
          text: () => body.toString("utf8"),
        });
      });
    });
  });
}

/** A fresh connection per request (no agent), so tests never share sockets. */
export function open(port: number, path: string, options: PostOptions = {}): ClientRequest {
  const headers: Record<string, string> = { ...options.headers };
  if (Buffer.isBuffer(options.body)) headers["content-length"] ??= String(options.body.length);
  return httpRequest({ host: "127.0.0.1", port, path, method: options.method ?? "POST", headers, agent: false });
}

export function send(port: number, path: string, options: PostOptions = {}): Promise<ClientResponse> {
  const req = open(port, path, options);
  const response = collect(req);
  if (Array.isArray(options.body)) for (const chunk of options.body) req.write(chunk);
  req.end(Buffer.isBuffer(options.body) ? options.body : undefined);
  return response;
}

export { collect as responseOf };

/**
 * A GET of `target` whose client closes the connection as soon as the first bytes of the answer
 * arrive, as a crawler closing early does. `headers`: extra header lines, each ending in CRLF.
 */
export function leaveEarly(port: number, target: string, headers = ""): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`));
    socket.once("data", () => {
      socket.destroy();
      resolve();
    });
    socket.once("error", reject);
  });
}
